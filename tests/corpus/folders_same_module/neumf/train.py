# Mimics the PATTERN of that folder's training script: the import seeds `random`, while the model's weights and the loader's order come from torch's generator, which nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader

from dataset import InteractionDataset, negative_samples

negatives = negative_samples(list(range(100)), 10)
model = torch.nn.Embedding(100, 8)
optimizer = torch.optim.Adam(model.parameters())
loader = DataLoader(InteractionDataset(list(range(10)), negatives), batch_size=2, shuffle=True)
for epoch in range(5):
    for users, items in loader:
        loss = -(model(users) * model(items)).sum(-1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
