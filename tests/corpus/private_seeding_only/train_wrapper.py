# Mimics the PATTERN of transformer-library example scripts (a model from an installed wrapper library, switched with `model.train()`, beside a script of the folder defining a seeding `train`; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from x_wrappers import AutoregressiveWrapper, TransformerWrapper

model = AutoregressiveWrapper(TransformerWrapper(num_tokens=256, max_seq_len=64))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for step in range(100):
    model.train()
    loss = model(torch.randint(0, 256, (4, 64)))
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
