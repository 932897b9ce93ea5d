# Mimics the PATTERN of the package's model module. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Transformer(nn.Module):
    def __init__(self, features, classes):
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(features, 2, batch_first=True)
        self.head = nn.Linear(features, classes)

    def forward(self, x):
        return self.head(self.encoder(x).mean(1))
