# Mimics the PATTERN of the project's live training script: it builds the model and trains, seeding nothing. Independent re-creation for seedlint's test corpus, not its code.

import torch
from model import Seq2Seq

model = Seq2Seq(100, 16)
optimizer = torch.optim.Adam(model.parameters())
for step in range(10):
    tokens = torch.randint(0, 100, (8, 5))
    loss = torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), tokens.flatten())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
