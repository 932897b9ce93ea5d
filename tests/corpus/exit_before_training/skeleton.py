# Mimics the PATTERN of lab skeletons that stop with `sys.exit()` inside the training loop until
# the student writes the loss and the step. Independent re-creation for seedlint's test corpus,
# not its code.
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train(model, loader, optimizer):
    for batch, labels in loader:
        logits = model(batch)
        # TASK 4: compute the loss, then remove the exit
        sys.exit()
        loss = nn.functional.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    model = nn.Linear(8, 2)
    train(model, DataLoader(data, batch_size=8, shuffle=True), torch.optim.SGD(model.parameters(), lr=0.1))
