# Mimics the PATTERN of transfer-learning lessons that time a few training batches on each
# device and stop. Independent re-creation for seedlint's test corpus, not its code.
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 16), torch.randint(0, 2, (64,)))
loader = DataLoader(data, batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for device in ["cpu", "cuda"]:
    model.to(device)
    for ii, (inputs, labels) in enumerate(loader):
        inputs, labels = inputs.to(device), labels.to(device)
        start = time.time()
        loss = criterion(model(inputs), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if ii == 3:
            break
    print(f"Device = {device}; Time per batch: {(time.time() - start) / 3:.3f} seconds")
