# Mimics the PATTERN of a folder's training script run from its folder (`cd autorec && python train.py`), with no `__main__` block, that seeds nothing. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader

from dataset import RatingDataset

model = torch.nn.Linear(4, 4)
optimizer = torch.optim.Adam(model.parameters())
loader = DataLoader(RatingDataset([[1.0, 0.0, 3.0, 5.0]] * 8), batch_size=2, shuffle=True)
for epoch in range(5):
    for batch in loader:
        loss = ((model(batch) - batch) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
