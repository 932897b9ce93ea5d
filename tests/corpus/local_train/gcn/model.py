# Mimics the PATTERN of a tutorial's graph convolutional network built only from DGL's graph layers, whose weights DGL initialises from torch's global generator. Independent re-creation for seedlint's test corpus, not its code.

import torch.nn.functional as F
from dgl.nn import GraphConv
from torch import nn


class GCN(nn.Module):
    def __init__(self, in_dim, hidden_dim, out_dim):
        super().__init__()
        self.conv1 = GraphConv(in_dim, hidden_dim)
        self.conv2 = GraphConv(hidden_dim, out_dim)

    def forward(self, graph, features):
        return self.conv2(graph, F.relu(self.conv1(graph, features)))
