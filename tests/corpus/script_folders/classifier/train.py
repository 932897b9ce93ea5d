# Mimics the PATTERN of a homework training script run as `python train.py` from its folder, seeding through the `utils.py` beside it (the script's folder is first on `sys.path`), which leaves torch unseeded. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from utils import set_seed

set_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, targets = torch.ones(32, 8), torch.zeros(32, dtype=torch.long)
for step in range(10):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(inputs), targets)
    loss.backward()
    optimizer.step()
