# Mimics the PATTERN of a library block with a self-test under `__main__` (it trains a few steps and seeds nothing), imported by the model as `model.blocks.accelerated`. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class Accelerated(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(channels, 1, 1))

    def forward(self, x):
        return x * self.scale


if __name__ == "__main__":
    block = nn.Sequential(nn.Conv2d(2, 2, 1), Accelerated(2))
    optimizer = torch.optim.SGD(block.parameters(), lr=0.1)
    for _ in range(3):
        loss = block(torch.rand(1, 2, 4, 4)).sum()
        loss.backward()
        optimizer.step()
    print(loss.item())
