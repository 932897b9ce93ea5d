# Mimics the entry-point PATTERN of training projects whose main.py seeds torch only before running a Runner in another module. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch

from runner import Runner


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    Runner(args).train()


if __name__ == "__main__":
    main()
