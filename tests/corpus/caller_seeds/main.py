# Mimics the entry-point PATTERN of training projects whose main.py seeds and then runs a Runner class in another module (issue 25 sweep). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import numpy as np
import torch

from runner import Runner


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    Runner(args).train()


if __name__ == "__main__":
    main()
