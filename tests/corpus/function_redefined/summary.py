# Mimics the PATTERN of the look-alike beside it: the helper that trains is defined second, after the only call, which runs the first definition; no training runs. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def prepare(rows):
    return torch.zeros(rows, 4)


table = prepare(10)


def prepare(rows):
    embedding = nn.Embedding(rows, 4)
    optimizer = torch.optim.Adam(embedding.parameters())
    for _ in range(5):
        loss = embedding(torch.arange(rows)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return embedding.weight.detach()


print(table.shape)
