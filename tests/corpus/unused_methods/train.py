# Mimics the PATTERN of a seeded CUDA training script calling one of its decoder's helper methods on every step. Independent re-creation for seedlint's test corpus, not its code.

import torch
from model import Decoder

torch.manual_seed(0)
model = Decoder().cuda()
optimizer = torch.optim.Adam(model.parameters())
for step in range(10):
    x = torch.randn(4, 8, device="cuda")
    probs = model(x)
    loss = model.scatter_copy(probs, torch.zeros(4, 8, dtype=torch.long, device="cuda")).sum()
    loss.backward()
    optimizer.step()
