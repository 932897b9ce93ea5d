# Mimics the PEFT/LoRA fine-tuning PATTERN of many instruction-tuning scripts built on
# huggingface/peft and transformers.Trainer (alpaca-lora-style finetune.py), made buggy on purpose:
# there is no set_seed call, and get_peft_model draws the LoRA adapter weights before
# Trainer(...) is constructed, which is where Trainer.__init__ seeds with args.seed. The adapter
# initialisation therefore changes from run to run. Independent re-creation for seedlint's test
# corpus, not any project's code.
import argparse

import torch
from peft import LoraConfig, get_peft_model
from transformers import (AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer,
                          TrainingArguments)


class PromptDataset(torch.utils.data.Dataset):
    def __init__(self, tokenizer, examples, cutoff_len=256):
        self.items = []
        for example in examples:
            prompt = f"### Instruction:\n{example['instruction']}\n\n### Response:\n{example['output']}"
            tokens = tokenizer(prompt, truncation=True, max_length=cutoff_len)
            tokens["labels"] = list(tokens["input_ids"])
            self.items.append(tokens)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base_model", default="facebook/opt-125m")
    parser.add_argument("--output_dir", default="./lora-out")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--num_epochs", type=int, default=3)
    parser.add_argument("--learning_rate", type=float, default=3e-4)
    parser.add_argument("--micro_batch_size", type=int, default=4)
    parser.add_argument("--lora_r", type=int, default=8)
    parser.add_argument("--lora_alpha", type=int, default=16)
    parser.add_argument("--lora_dropout", type=float, default=0.05)
    args = parser.parse_args()

    training_args = TrainingArguments(
        output_dir=args.output_dir,
        seed=args.seed,
        num_train_epochs=args.num_epochs,
        learning_rate=args.learning_rate,
        per_device_train_batch_size=args.micro_batch_size,
        logging_steps=10,
        save_strategy="epoch",
        report_to="none",
    )

    tokenizer = AutoTokenizer.from_pretrained(args.base_model)
    tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.base_model)
    lora_config = LoraConfig(
        r=args.lora_r,
        lora_alpha=args.lora_alpha,
        target_modules=["q_proj", "v_proj"],
        lora_dropout=args.lora_dropout,
        bias="none",
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(model, lora_config)
    model.print_trainable_parameters()

    examples = [{"instruction": f"Add {i} and {i + 1}.", "output": str(2 * i + 1)} for i in range(64)]
    train_data = PromptDataset(tokenizer, examples)

    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train_data,
        data_collator=DataCollatorForSeq2Seq(
            tokenizer, pad_to_multiple_of=8, return_tensors="pt", padding=True
        ),
    )
    model.config.use_cache = False
    trainer.train()
    model.save_pretrained(args.output_dir)


if __name__ == "__main__":
    main()
