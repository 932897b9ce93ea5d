# Mimics the seed-picking PATTERN of Hugging Face fine-tuning scripts (`seed = args.seed if args.seed is not None else random.randint(..)`, a `Trainer` that evaluates a pretrained model with its default `TrainingArguments` seed, then `set_seed(seed)` before the model it trains). Independent re-creation for seedlint's test corpus, not its code.

import argparse
import random

from torch import nn
from transformers import AutoModel, Trainer, TrainingArguments, set_seed

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()

if args.seed is None:
    args.seed = random.randint(0, 2**31 - 1)
print(f"seed: {args.seed}")

baseline = Trainer(model=AutoModel.from_pretrained("bert-base-uncased"), args=TrainingArguments("baseline"))
print(baseline.evaluate())

set_seed(args.seed)
model = nn.Linear(4, 2)
trainer = Trainer(model=model, args=TrainingArguments("out", seed=args.seed))
trainer.train()
print(trainer.evaluate(), random.random())
