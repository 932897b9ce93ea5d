# Mimics the PATTERN of a one-file diffusion study whose top level builds its model and loader and calls its own training function, named for what it computes, not `train`: no `__main__` block, nothing seeded. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

data = DataLoader(TensorDataset(torch.ones(64, 8)), batch_size=16, shuffle=True)


def forward_process(model, loader, epochs):
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for (x,) in loader:
            noise = torch.randn_like(x)
            loss = nn.functional.mse_loss(model(x + noise), noise)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


model = nn.Linear(8, 8)
forward_process(model, data, epochs=3)
