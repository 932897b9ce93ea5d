# Mimics the PATTERN of diffusion codebases (`schedule.py` trains a toy model under its `__main__` block as a self-check, and `sample.py` imports its class: a library module whose `__main__` block is a demo; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class Schedule:
    def __init__(self, steps=100):
        self.alpha = torch.linspace(0.99, 0.9, steps)


if __name__ == "__main__":
    model = nn.Linear(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.randn(4, 2)).sum()
    loss.backward()
    optimizer.step()
