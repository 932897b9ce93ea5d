# Mimics the PATTERN of course notebooks that split a dataset, look at the sizes, then split it again with other sizes before training: the first split's value is bound again before any use, and only the second one orders the training. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

data = TensorDataset(torch.ones(100, 4), torch.zeros(100, dtype=torch.long))

train_set, val_set = random_split(data, [80, 20])
print(len(train_set), len(val_set))

train_set, val_set = random_split(data, [90, 10])
model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in DataLoader(train_set, batch_size=10):
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
