# Mimics the PATTERN of a models module picked from by name. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 4)

    def forward(self, x):
        return self.layer(x)
