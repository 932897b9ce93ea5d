# Mimics the PATTERN of a script folder where one script defines a seeding `train(seed)`. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def train(seed):
    torch.manual_seed(seed)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train(0)
