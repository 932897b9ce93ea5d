# Mimics the PATTERN of notebook-exported scripts that define a helper, call it, then define it again differently and call the new one: the first call runs the first definition, which trains an embedding; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def prepare(rows):
    embedding = nn.Embedding(rows, 4)
    optimizer = torch.optim.Adam(embedding.parameters())
    for _ in range(5):
        loss = embedding(torch.arange(rows)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return embedding.weight.detach()


vectors = prepare(10)


def prepare(rows):
    return torch.zeros(rows, 4)


table = prepare(10)
print(vectors.shape, table.shape)
