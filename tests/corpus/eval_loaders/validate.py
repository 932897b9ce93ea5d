# Mimics the validation split PATTERN of course notebooks exported to scripts (SubsetRandomSampler for training and validation loaders, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch.utils.data import DataLoader, SubsetRandomSampler, TensorDataset

data = TensorDataset(torch.arange(100.0).view(-1, 1), torch.zeros(100))
indices = list(range(100))
split = 80
train_idx, valid_idx = indices[:split], indices[split:]
train_sampler = SubsetRandomSampler(train_idx)
valid_sampler = SubsetRandomSampler(valid_idx)
train_loader = DataLoader(data, batch_size=10, sampler=train_sampler)
valid_loader = DataLoader(data, batch_size=10, sampler=valid_sampler)
model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(3):
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        loss = (model(x).squeeze(1) - y).pow(2).mean()
        loss.backward()
        optimizer.step()
    model.eval()
    valid_loss = 0.0
    for x, y in valid_loader:
        valid_loss += (model(x).squeeze(1) - y).pow(2).sum().item()
    print(epoch, valid_loss / len(valid_idx), np.sqrt(valid_loss))
