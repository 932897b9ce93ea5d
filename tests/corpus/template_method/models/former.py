# Mimics the PATTERN of time-series transformer models (layers with random initial weights). Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Former(nn.Module):
    def __init__(self, d_model, dropout):
        super().__init__()
        self.proj = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(self.proj(x))
