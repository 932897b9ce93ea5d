# Mimics the PATTERN of the evaluation command: it loads a trained checkpoint, runs the same routine with `optimizer=None` and times the model on a random example. Independent re-creation for seedlint's test corpus, not its code.

import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

from engine import run_epoch


def main(path):
    model = torch.nn.Linear(2, 1)
    model.load_state_dict(torch.load(path))
    loader = DataLoader(TensorDataset(torch.ones(8, 2), torch.ones(8, 1)))
    result = run_epoch(model=model, loader=loader, optimizer=None)
    example = torch.randn(1, 2)
    print(result, model(example))


if __name__ == "__main__":
    main(sys.argv[1])
