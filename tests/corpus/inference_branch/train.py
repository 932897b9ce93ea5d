# Mimics the PATTERN of the project's training script (seeded, on CUDA, the model built without the inference flag). Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.net import Net

torch.manual_seed(0)
model = Net().cuda()
optimizer = torch.optim.Adam(model.parameters())
for step in range(10):
    loss = model(torch.randn(2, 3, 16, 16).cuda()).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
