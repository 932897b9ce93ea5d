# Mimics the PATTERN of ColossalAI example scripts (`colossalai.launch_from_torch(config={})`, whose `seed` defaults to 1024, then training). Independent re-creation for seedlint's test corpus, not its code.

import colossalai
import numpy as np
import torch
from torch import nn

colossalai.launch_from_torch(config={})
model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.from_numpy(np.random.randn(8, 4)).float()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
