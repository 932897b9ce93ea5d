# Mimics the PATTERN of a script taking everything from the helpers beside it with `from utils import *`. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from utils import *

seed_everything(0)
head = nn.Linear(16, 4)
optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(10):
    boxes = head(torch.rand(8, 16)).abs().cumsum(dim=1)
    optimizer.zero_grad()
    loss = box_area(boxes).mean()
    loss.backward()
    optimizer.step()
