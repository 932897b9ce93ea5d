# Mimics the PATTERN of a training script relying on that import for its seeding (the model's weights drawn from torch, never seeded). Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch import nn

import config

model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=config.LR)
for step in range(10):
    x = torch.from_numpy(np.random.randn(8, 4)).float()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
