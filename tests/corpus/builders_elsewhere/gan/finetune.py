# Mimics the PATTERN of GAN fine-tuning scripts (the generator built by a factory of another module, then its saved weights loaded; batches in their stored order; nothing seeded: what it trains from is the checkpoint). Independent re-creation for seedlint's test corpus, not its code.

import torch
from networks import define_g

net_g = define_g(3)
net_g.load_state_dict(torch.load("generator.pt"))
optimizer = torch.optim.SGD(net_g.parameters(), lr=1e-3)
images = torch.load("images.pt")
for epoch in range(3):
    for real in images.split(8):
        loss = net_g(real).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
