# Mimics the PATTERN of tutorial scripts whose only seeding is a private generator for the split (`random_split(.., generator=torch.Generator().manual_seed(42))`), training otherwise unseeded. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

data = TensorDataset(torch.randn(100, 4), torch.randn(100, 1))
train_set, val_set = random_split(data, [80, 20], generator=torch.Generator().manual_seed(42))
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in DataLoader(train_set, batch_size=8, shuffle=True):
    loss = (model(x) - y).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
