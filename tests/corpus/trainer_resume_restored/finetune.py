# Mimics the PATTERN of a second entry script that resumes through the same trainer but seeds nothing (SL112's concern, not a resume of a seeded run). Independent re-creation for seedlint's test corpus, not its code.

import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

from trainer import Trainer

model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loader = DataLoader(TensorDataset(torch.ones(8, 2), torch.ones(8, 1)), shuffle=True)
Trainer(model, optimizer, 5, loader, resume=sys.argv[1]).train()
