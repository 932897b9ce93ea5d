# Mimics the PATTERN of a script reusing a helper of the stale variant (`from train_rl import ..`): importing that script fails, so this one stops at its imports too (it would also train unseeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from train_rl import baseline

optimizer = torch.optim.Adam(baseline.parameters())
for step in range(10):
    tokens = torch.randint(0, 100, (8, 5))
    loss = baseline(tokens).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
