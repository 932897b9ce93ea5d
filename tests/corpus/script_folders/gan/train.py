# Mimics the PATTERN of the same kind of script in the next assignment's folder, seeded by its own `utils.set_seed`. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from utils import set_seed

set_seed(0)
generator = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
optimizer = torch.optim.Adam(generator.parameters(), lr=1e-3)
for step in range(10):
    noise = torch.randn(32, 4)
    optimizer.zero_grad()
    loss = generator(noise).pow(2).mean()
    loss.backward()
    optimizer.step()
