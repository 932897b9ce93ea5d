# Mimics the PATTERN of sequence-labelling training scripts (seeded once; every epoch asks the loader for a shuffled training iterator, which reseeds `random` with the same seed, and for unshuffled evaluation iterators). Independent re-creation for seedlint's test corpus, not its code.

import random

import torch
from data_loader import DataLoader

random.seed(2019)
torch.manual_seed(2019)
loader = DataLoader(seed=2019)
train_data, val_data = list(range(16)), list(range(4))
model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for batch in loader.data_iterator(train_data, shuffle=True):
        loss = model(torch.tensor(batch, dtype=torch.float).view(-1, 1)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for batch in loader.data_iterator(val_data, shuffle=False):
        print(model(torch.tensor(batch, dtype=torch.float).view(-1, 1)))
