# Mimics the PATTERN of a one-file fit whose loop defines a closure and hands it to LBFGS: the backward pass runs where `optimizer.step(closure)` calls it; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

model = nn.Linear(2, 1)
optimizer = torch.optim.LBFGS(model.parameters())
for epoch in range(3):

    def closure():
        optimizer.zero_grad()
        loss = model(torch.ones(4, 2)).pow(2).mean()
        loss.backward()
        return loss

    optimizer.step(closure)
