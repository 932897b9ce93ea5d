# Mimics the data preparation PATTERN of many Hugging Face fine-tuning scripts written without the
# Trainer (a `seed_all`-less `torch.manual_seed(args.seed)`, `load_dataset`, a held-out split carved
# with `train_test_split(test_size=...)` and a `shuffle()` before subsampling). Independent re-creation
# for seedlint's test corpus, not its code.
import argparse

import torch
from datasets import load_dataset
from torch.utils.data import DataLoader


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--train-samples", type=int, default=2000)
    return parser.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)

    raw = load_dataset("imdb")
    splits = raw["train"].train_test_split(test_size=0.1)
    train = splits["train"]
    train = train.shuffle().select(range(args.train_samples))
    # Seeded look-alikes: these two are reproducible.
    evaluation = raw["test"].shuffle(seed=args.seed).select(range(500))
    held_out = raw["test"].train_test_split(test_size=0.5, seed=args.seed)["test"]

    loader = DataLoader(train, batch_size=16, shuffle=True)
    model = torch.nn.Linear(1, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for batch in loader:
        lengths = torch.tensor([[float(len(text))] for text in batch["text"]])
        loss = torch.nn.functional.cross_entropy(model(lengths), batch["label"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(len(evaluation), len(held_out))


if __name__ == "__main__":
    main()
