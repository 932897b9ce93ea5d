# Mimics the PATTERN of an epoch function that builds a CTC loss and backpropagates through it. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def train_epoch(model, optimizer, device):
    criterion = nn.CTCLoss()
    features = torch.randn(5, 2, 8, device=device)
    log_probs = model(features)[0].log_softmax(-1)
    targets = torch.randint(1, 8, (2, 3), device=device)
    loss = criterion(log_probs, targets, [5, 5], [3, 3])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
