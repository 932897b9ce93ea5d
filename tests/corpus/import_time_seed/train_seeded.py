# Mimics the look-alike: the same import, and torch seeded from the configuration's seed before the model. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch import nn

import config

torch.manual_seed(config.SEED)
model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=config.LR)
for step in range(10):
    x = torch.from_numpy(np.random.randn(8, 4)).float()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
