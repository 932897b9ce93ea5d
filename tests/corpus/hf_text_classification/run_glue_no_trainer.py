# Mimics the seeding PATTERN of huggingface/transformers run_glue_no_trainer.py (Accelerator first,
# `if args.seed is not None: set_seed(args.seed)` from accelerate, a shuffling DataLoader prepared by
# the accelerator). Independent re-creation for seedlint's test corpus, not its code.
import argparse

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, DataCollatorWithPadding, AutoTokenizer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--num_train_epochs", type=int, default=3)
    args = parser.parse_args()

    accelerator = Accelerator()
    if args.seed is not None:
        set_seed(args.seed)

    tokenizer = AutoTokenizer.from_pretrained("bert-base-cased")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=2)
    texts = [f"example {i}" for i in range(64)]
    train_dataset = [dict(tokenizer(text), labels=i % 2) for i, text in enumerate(texts)]
    train_dataloader = DataLoader(
        train_dataset, shuffle=True, collate_fn=DataCollatorWithPadding(tokenizer), batch_size=8
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

    for epoch in range(args.num_train_epochs):
        model.train()
        for batch in train_dataloader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
