# Mimics the PATTERN of a small graph network module. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class GCN(nn.Module):
    def __init__(self, features, classes):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(features, classes))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, adjacency, x):
        return adjacency @ x @ self.weight
