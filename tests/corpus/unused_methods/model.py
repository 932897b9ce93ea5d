# Mimics the PATTERN of a keyphrase-generation model whose decoder keeps a helper method that no code calls any more (`merge_oov2unk`, a `scatter_add_` on CUDA) beside one the training loop calls. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = nn.Linear(8, 8)

    def forward(self, x):
        return self.out(x)

    def merge_oov2unk(self, probs, index):
        merged = torch.zeros_like(probs)
        merged.scatter_add_(1, index, probs)
        return merged

    def scatter_copy(self, probs, index):
        merged = torch.zeros_like(probs)
        merged.scatter_add_(1, index, probs)
        return merged
