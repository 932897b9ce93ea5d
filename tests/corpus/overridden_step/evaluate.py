# Mimics the PATTERN of the evaluation lesson beside it: the same epoch runners, but only `ValidEpoch(..).run(loader)` runs, on weights it loads; `TrainEpoch` is defined and never built. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Epoch:
    def __init__(self, model, loss, optimizer=None):
        self.model, self.loss, self.optimizer = model, loss, optimizer

    def batch_update(self, x, y):
        raise NotImplementedError

    def run(self, loader):
        return [self.batch_update(x, y) for x, y in loader]


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
model.load_state_dict(torch.load("model.pt"))
data = TensorDataset(torch.ones(8, 3, 16, 16), torch.zeros(8, 1, 16, 16))
print(ValidEpoch(model, nn.functional.mse_loss).run(DataLoader(data, batch_size=4)))
