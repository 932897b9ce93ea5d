# Mimics the PATTERN of a model library module (functions that train a layer for callers, a top-level loop that registers names; no program of its own). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

ACTIVATIONS = {}
for name in ("relu", "gelu", "tanh"):
    ACTIVATIONS[name] = getattr(nn.functional, name)


def fit_layer(layer, inputs, targets, steps=10):
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    for _ in range(steps):
        loss = nn.functional.mse_loss(layer(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return layer
