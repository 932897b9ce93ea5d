# Mimics the PATTERN of adapter libraries' example scripts (a custom loop calling its own `model(**batch)`, nothing seeded; the test suite beside it has a seeding fixture that is also named `model`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1), nn.Linear(8, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = torch.utils.data.DataLoader(torch.randn(32, 8), batch_size=4, shuffle=True)
for epoch in range(3):
    model.train()
    for batch in loader:
        loss = model(batch).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
