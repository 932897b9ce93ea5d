# Mimics the PATTERN of segmentation lessons whose epoch runner is a base class: `Epoch.run` calls `self.batch_update(..)`, which only the subclasses define; the program trains with `TrainEpoch(..).run(loader)` and seeds nothing. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Epoch:
    def __init__(self, model, loss, optimizer=None):
        self.model, self.loss, self.optimizer = model, loss, optimizer

    def batch_update(self, x, y):
        raise NotImplementedError

    def run(self, loader):
        logs = []
        for x, y in loader:
            logs.append(self.batch_update(x, y))
        return logs


class TrainEpoch(Epoch):
    def batch_update(self, x, y):
        self.optimizer.zero_grad()
        loss = self.loss(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


class ValidEpoch(Epoch):
    def batch_update(self, x, y):
        with torch.no_grad():
            return self.loss(self.model(x), y).item()


model = nn.Conv2d(3, 1, 3, padding=1)
data = TensorDataset(torch.ones(8, 3, 16, 16), torch.zeros(8, 1, 16, 16))
train_epoch = TrainEpoch(model, nn.functional.mse_loss, torch.optim.Adam(model.parameters()))
valid_epoch = ValidEpoch(model, nn.functional.mse_loss)
for epoch in range(2):
    train_logs = train_epoch.run(DataLoader(data, batch_size=4, shuffle=True))
    valid_logs = valid_epoch.run(DataLoader(data, batch_size=4))
