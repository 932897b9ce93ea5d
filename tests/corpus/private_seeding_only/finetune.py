# Mimics the PATTERN of another script of that folder calling `model.train()` (the module's mode switch, not the seeding `train`), seeding nothing. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model.train()
for step in range(10):
    loss = model(torch.randn(8, 4)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
