# Mimics the PATTERN of a one-file project named `*_train_test.py` that trains and evaluates from its top level: no `__main__` block, nothing seeded, no test a runner collects. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from model import GCN


def fit(model, optimizer, adjacency, x, y, epochs=10):
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(adjacency, x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


adjacency, x, y = torch.eye(4), torch.ones(4, 3), torch.tensor([0, 1, 0, 1])
model = GCN(3, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
final_loss = fit(model, optimizer, adjacency, x, y)
print(final_loss)
