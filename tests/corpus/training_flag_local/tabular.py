# Mimics the PATTERN of tabular tree-ensemble networks whose forward copies the module's mode into a local name, then drops features only when it is set; a twin layer copies the mode of a constructor argument instead. Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.nn.functional as F
from torch import nn


class SoftTrees(nn.Module):
    def __init__(self, features, dropout=0.2):
        super().__init__()
        self.leaves = nn.Linear(features, 8)
        self.dropout = dropout

    def forward(self, x):
        training = self.training
        weights = self.leaves(x)
        if self.dropout > 0 and training:
            weights = F.dropout(weights, p=self.dropout)
        return weights.sum(-1)


class SoftTreesFixedMode(nn.Module):
    def __init__(self, features, dropout=0.2, training=True):
        super().__init__()
        self.leaves = nn.Linear(features, 8)
        self.dropout = dropout
        self.always = training

    def forward(self, x):
        training = self.always
        weights = self.leaves(x)
        if self.dropout > 0 and training:
            weights = F.dropout(weights, p=self.dropout)
        return weights.sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    for model in (SoftTrees(4), SoftTreesFixedMode(4)):
        model.eval()
        print(model(torch.ones(2, 4)))
