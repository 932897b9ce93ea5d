# Mimics the PATTERN of beginner regression tutorials (seeded, a comment about the seed, a top-level training loop). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

torch.manual_seed(1)  # reproducible; was: # torch.manual_seed(0)

x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)
y = x.pow(2) + 0.2 * torch.rand(x.size())

net = nn.Sequential(nn.Linear(1, 10), nn.ReLU(), nn.Linear(10, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=0.2)

while optimizer.param_groups[0]["lr"] > 0.01:
    loss = nn.functional.mse_loss(net(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    optimizer.param_groups[0]["lr"] *= 0.9
