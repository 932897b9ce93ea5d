# Mimics the model PATTERN of transformer blocks whose attention helper takes a dropout probability the caller computes from self.training. Independent re-creation for seedlint's test corpus, not its code.

import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p
        self.proj = nn.Linear(32, 32)

    def _attend(self, x, dropout_p):
        return F.dropout(x, p=dropout_p)

    def _mix(self, x, dropout_p):
        return F.dropout(x, p=dropout_p)

    def forward(self, x):
        y = self._attend(x, self.p if self.training else 0.0)
        return self.proj(self._mix(y, self.p).flatten(2)).view_as(x)
