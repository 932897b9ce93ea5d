# Mimics the PATTERN of adapter libraries' example scripts (the adapter configuration read with the package's inherited `from_pretrained`, then a custom loop; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from adapters import AdapterConfig
from torch import nn

config = AdapterConfig.from_pretrained("adapter_config.json")
model = nn.Linear(8, config.rank)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(3):
    loss = model(torch.ones(4, 8)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
