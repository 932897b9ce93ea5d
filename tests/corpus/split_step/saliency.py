# Mimics the PATTERN of diffusion codebases' analysis scripts (gradients taken through the trainer helper to look at them; no step, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from kit.fp16 import MixedPrecisionTrainer

model = nn.Linear(16, 10)
trainer = MixedPrecisionTrainer(model, scale=1.0)
for step in range(4):
    x = torch.randn(1, 16)
    trainer.zero_grad()
    trainer.backward(model(x).sum())
    print(model.weight.grad.norm())
