# Mimics the PATTERN of diffusion codebases' classifier training scripts (the trainer helper's backward and optimize called in turn, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from kit.fp16 import MixedPrecisionTrainer

model = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 10))
trainer = MixedPrecisionTrainer(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(100):
    x, y = torch.randn(8, 16), torch.randint(0, 10, (8,))
    trainer.zero_grad()
    trainer.backward(nn.functional.cross_entropy(model(x), y))
    trainer.optimize(opt)
