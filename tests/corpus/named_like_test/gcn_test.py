# Mimics the PATTERN of graph projects whose only entry point is named `*_test.py`: an argparse `__main__` block that trains, with nothing seeded and no test a runner collects. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch

from model import GCN


def train(model, optimizer, adjacency, x, y, epochs):
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(adjacency, x), y)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=100)
    args = parser.parse_args()
    adjacency, x, y = torch.eye(4), torch.ones(4, 3), torch.tensor([0, 1, 0, 1])
    model = GCN(3, 2)
    optimizer = torch.optim.Adam(model.parameters())
    train(model, optimizer, adjacency, x, y, args.epochs)
