# Mimics the entry-point PATTERN of XLM's train.py (the trainer class picked on a branch, its inherited steps called in the epoch loop, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn

from xlmlite.trainer import EncDecTrainer, SingleTrainer


def main(params):
    encoder, decoder = nn.Linear(4, 4), nn.Linear(4, 4)
    if params.encoder_only:
        trainer = SingleTrainer([encoder])
    else:
        trainer = EncDecTrainer([encoder, decoder])
    for epoch in range(params.epochs):
        batch = torch.randn(8, 4)
        if params.encoder_only:
            trainer.mlm_step(batch)
        else:
            trainer.mt_step(batch)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--encoder_only", action="store_true")
    parser.add_argument("--epochs", type=int, default=3)
    main(parser.parse_args())
