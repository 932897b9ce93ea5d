# Mimics the PATTERN of a model library's layers under test (a fused dropout-residual layer and its reference). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class FusedDropoutAdd(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x, residual):
        mask = torch.rand_like(x) >= self.p
        return x * mask / (1 - self.p) + residual


def reference(x, residual, p):
    mask = torch.rand_like(x) >= p
    return x * mask / (1 - p) + residual
