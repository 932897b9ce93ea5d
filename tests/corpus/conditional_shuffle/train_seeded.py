# Mimics the look-alike: the same script seeding torch first. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

import models


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_true")
    parser.add_argument("--generator", default="Generator")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = getattr(models, args.generator)()
    optimizer = torch.optim.Adam(model.parameters())
    dataset = TensorDataset(torch.ones(64, 4))
    loader = DataLoader(dataset, batch_size=8, shuffle=False if args.distributed else True)
    for (x,) in loader:
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
