# Mimics the head-pruning scripts of the transformers research projects (bertology): an option
# for the random state parsed, the namespace saved and logged, gradients taken to score heads, and
# nothing seeded. Independent re-creation of the pattern.

import argparse
import logging
import os

import torch
from torch import nn

logger = logging.getLogger(__name__)


def head_importance(args, model, batches):
    scores = torch.zeros(args.heads)
    for batch in batches:
        model(batch).sum().backward()
        scores += model.weight.grad.abs().sum(dim=1)[: args.heads]
    return scores


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output_dir", default="out")
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    os.makedirs(args.output_dir, exist_ok=True)
    torch.save(args, os.path.join(args.output_dir, "run_args.bin"))
    logger.info("Parameters %s", args)
    model = nn.Linear(8, 8)
    print(head_importance(args, model, [torch.ones(2, 8)]))


if __name__ == "__main__":
    main()
