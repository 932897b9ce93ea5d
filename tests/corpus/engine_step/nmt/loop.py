# Mimics the PATTERN of a translation project's training entry function, which other scripts hand to a runner. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def train_main(config):
    model = nn.Sequential(nn.Embedding(100, 16), nn.Dropout(0.2), nn.Linear(16, 100))
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(config["epochs"]):
        tokens = torch.zeros(4, dtype=torch.long)
        loss = nn.functional.cross_entropy(model(tokens), tokens)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
