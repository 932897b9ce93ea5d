# Mimics the PATTERN of GAN codebases (a script that pretrains the discriminator built by another module's `define_D`, on batches in their stored order; nothing seeded, nothing loaded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from networks import define_d

net_d = define_d(3)
optimizer = torch.optim.Adam(net_d.parameters(), lr=2e-4)
for epoch in range(3):
    for real in torch.ones(16, 3, 8, 8).split(4):
        loss = net_d(real).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
