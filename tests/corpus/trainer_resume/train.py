# Mimics the PATTERN of the template's entry script: a fixed seed at the top, `-r/--resume`, and the trainer of another module. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from trainer import Trainer

SEED = 123
torch.manual_seed(SEED)


def main(args):
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), shuffle=True)
    Trainer(model, optimizer, 5, loader, resume=args.resume).train()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-r", "--resume", default=None)
    main(parser.parse_args())
