# Mimics the PATTERN of an entry script that builds the subclass before it seeds, and one that builds a subclass whose base constructor loads weights on one of its branches. Independent re-creation for seedlint's test corpus, not its code.

import sys

import torch

from models.planetoid import FinetunedModel, PlanetoidGAT

model = PlanetoidGAT(features=4)
finetuned = FinetunedModel(sys.argv[1])
torch.manual_seed(0)
optimizer = torch.optim.Adam([*model.parameters(), *finetuned.parameters()])
for _ in range(10):
    loss = (model(torch.ones(2, 4)) + finetuned(torch.ones(2, 4))).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
