# Mimics the PATTERN of a project folder whose trainer is a function named `train` that seeds torch before it trains: a project seeding helper by name. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def train(seed, steps=10):
    torch.manual_seed(seed)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model


if __name__ == "__main__":
    train(0)
