# Mimics the PATTERN of an audio classifier's training script that imports its model from the package, not from the older module of the same name beside it; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from model import Transformer

if __name__ == "__main__":
    model = Transformer(8, 2)
    optimizer = torch.optim.Adam(model.parameters())
    x, y = torch.ones(4, 5, 8), torch.tensor([0, 1, 0, 1])
    for _ in range(3):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
