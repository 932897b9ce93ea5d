# Mimics the PATTERN of training scripts started by python-fire (`fire.Fire(train)` under `__main__`, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import fire
import torch
from torch import nn


def train(epochs=3, lr=0.1):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    fire.Fire(train)
