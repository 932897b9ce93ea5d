# Mimics the PATTERN of graph tutorial notebooks (an encoder whose functional dropout takes `self.dropout_prob`, built with 0.5). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.nn.functional as F
from torch import nn


class MLPEncoder(nn.Module):
    def __init__(self, n_in, n_hid, do_prob=0.0):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hid)
        self.dropout_prob = do_prob

    def forward(self, x):
        return F.dropout(F.relu(self.fc1(x)), p=self.dropout_prob)


encoder = MLPEncoder(n_in=4, n_hid=16, do_prob=0.5)
encoder.eval()
with torch.no_grad():
    print(encoder(torch.ones(2, 4)))
