# Mimics the PATTERN of graph-attention projects whose base model class builds every layer in its constructor. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class GATModel(nn.Module):
    def __init__(self, features=4, hidden=8, classes=2):
        super().__init__()
        self.attend = nn.Linear(features, hidden)
        self.classify = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.classify(torch.relu(self.attend(x)))


class PretrainedModel(nn.Module):
    def __init__(self, path=None):
        super().__init__()
        if path is None:
            self.encoder = nn.Linear(4, 2)
        else:
            self.encoder = torch.load(path)

    def forward(self, x):
        return self.encoder(x)
