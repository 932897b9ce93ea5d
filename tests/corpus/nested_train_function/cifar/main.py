# Mimics the PATTERN of a classification script of the same project whose `__main__` block defines its own `train(epoch)` and calls it each epoch: nothing seeds, although another folder's `train` does. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.ones(32, 4), torch.zeros(32)), batch_size=8, shuffle=True)
    net = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)

    def train(epoch):
        for x, y in loader:
            loss = nn.functional.cross_entropy(net(x), y.long())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())

    for epoch in range(3):
        train(epoch)
