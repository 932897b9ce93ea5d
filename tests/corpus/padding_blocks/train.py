# Mimics the PATTERN of a seeded CUDA image-translation training script building the generator with its default padding. Independent re-creation for seedlint's test corpus, not its code.

import torch
from networks import Generator

torch.manual_seed(0)
device = torch.device("cuda")
model = Generator().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
for step in range(10):
    images = torch.rand(2, 3, 32, 32, device=device)
    loss = (model(images) - images).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
