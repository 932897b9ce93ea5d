# Mimics the PATTERN of graph tutorial notebooks (a decoder whose functional dropout takes `self.dropout_prob`, 0 by default, built without it). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.nn.functional as F
from torch import nn


class MLPDecoder(nn.Module):
    def __init__(self, n_in, n_hid, do_prob=0.0):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hid)
        self.fc2 = nn.Linear(n_hid, n_in)
        self.dropout_prob = do_prob

    def forward(self, x):
        hidden = F.dropout(F.relu(self.fc1(x)), p=self.dropout_prob)
        return self.fc2(hidden)


decoder = MLPDecoder(n_in=4, n_hid=16)
decoder.eval()
with torch.no_grad():
    print(decoder(torch.ones(2, 4)))
