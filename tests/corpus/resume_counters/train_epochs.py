# Mimics the PATTERN of graph-learning experiment managers (seeded; `start_epoch = load_ckpt(model, optimizer)` from the project's helper, which restores no generator; then `range(start_epoch, ..)`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from checkpoint import load_ckpt

torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
optimizer = torch.optim.Adam(model.parameters())
loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8, shuffle=True)
start_epoch = 0
if input("resume? ") == "y":
    start_epoch = load_ckpt(model, optimizer)
for epoch in range(start_epoch, 100):
    for batch in loader:
        loss = model(batch).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
