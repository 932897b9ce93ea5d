# Mimics the PATTERN of a trainer module that seeds torch at its top level; its class builds the model in a method the entry point's call runs. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from splits import Splits

torch.manual_seed(1)


class Trainer:
    def __init__(self, features):
        self.data = Splits(100)
        self.model = self.build(features)

    def build(self, features):
        return nn.Linear(features, 1)

    def training(self):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        loss = self.model(torch.ones(4, 8)).sum()
        loss.backward()
        optimizer.step()
