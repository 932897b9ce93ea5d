# Mimics the PATTERN of image-translation projects whose entry script only parses options (`--cuda`), seeds and calls `Trainer(args).train()`; the trainer class of another module moves the networks to CUDA and runs the backward passes. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch

from trainer import Trainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cuda", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    Trainer(args).train()


if __name__ == "__main__":
    main()
