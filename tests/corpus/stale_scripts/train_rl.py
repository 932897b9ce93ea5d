# Mimics the PATTERN of a stale reinforcement-learning variant of the training script that imports a class the model module no longer defines, so it stops at its imports (it would also train unseeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from model import Seq2Seq, Seq2SeqCopyAttention

model = Seq2SeqCopyAttention(100, 16)
baseline = Seq2Seq(100, 16)
optimizer = torch.optim.Adam(model.parameters())
for step in range(10):
    tokens = torch.randint(0, 100, (8, 5))
    reward = (model(tokens) - baseline(tokens)).mean()
    optimizer.zero_grad()
    (-reward).backward()
    optimizer.step()
