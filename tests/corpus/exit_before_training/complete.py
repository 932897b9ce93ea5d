# Mimics the PATTERN of the same lab once the student has written the loss and the step.
# Independent re-creation for seedlint's test corpus, not its code.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train(model, loader, optimizer):
    for batch, labels in loader:
        logits = model(batch)
        loss = nn.functional.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    model = nn.Linear(8, 2)
    train(model, DataLoader(data, batch_size=8, shuffle=True), torch.optim.SGD(model.parameters(), lr=0.1))
