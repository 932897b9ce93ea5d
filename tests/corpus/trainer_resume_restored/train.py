# Mimics the PATTERN of an entry script that seeds, then restores torch's generator state from the resumed checkpoint itself before training. Independent re-creation for seedlint's test corpus, not its code.

import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

from trainer import Trainer

torch.manual_seed(123)
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), shuffle=True)
resume = sys.argv[1] if len(sys.argv) > 1 else None
if resume is not None:
    torch.set_rng_state(torch.load(resume)["torch_rng"])
Trainer(model, optimizer, 5, loader, resume=resume).train()
