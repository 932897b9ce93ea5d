# Mimics the PATTERN of an entry script that seeds before it builds the subclass. Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.planetoid import PlanetoidGAT

torch.manual_seed(0)
model = PlanetoidGAT(features=4)
optimizer = torch.optim.Adam(model.parameters())
for _ in range(10):
    loss = model(torch.ones(2, 4)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
