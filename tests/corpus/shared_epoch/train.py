# Mimics the PATTERN of the training script: the routine given an optimizer, over a shuffling loader, with nothing seeded. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, TensorDataset

from engine import run_epoch

model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.ones(8, 2), torch.ones(8, 1)), shuffle=True)
for epoch in range(3):
    run_epoch(model, loader, optimizer)
