# Mimics the PATTERN of course notebooks turned scripts that split a dataset with two
# `SubsetRandomSampler`s, train on one loader and never iterate the validation loader.
# Independent re-creation for seedlint's test corpus, not its code.
import torch
from torch.utils.data import DataLoader, SubsetRandomSampler, TensorDataset

data = TensorDataset(torch.arange(100.0).unsqueeze(1), torch.arange(100.0))
train_sampler = SubsetRandomSampler(list(range(80)))
valid_sampler = SubsetRandomSampler(list(range(80, 100)))
train_loader = DataLoader(data, batch_size=10, sampler=train_sampler)
valid_loader = DataLoader(data, batch_size=10, sampler=valid_sampler)
print(f"{len(train_loader)} training and {len(valid_loader)} validation batches")

model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(3):
    for x, y in train_loader:
        loss = (model(x).squeeze(1) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
