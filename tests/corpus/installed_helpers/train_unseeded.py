# Mimics the look-alike PATTERN: a script using its lab's installed helpers for anything but randomness (`count_parameters`, `log_metrics`), seeding nothing. Independent re-creation for seedlint's test corpus, not its code.

import torch
from labkit.utils import count_parameters, log_metrics
from torch import nn

model = nn.Linear(4, 2)
print(count_parameters(model))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(8, 4)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    log_metrics(step=step, loss=loss.item())
