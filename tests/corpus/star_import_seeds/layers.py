# Mimics the PATTERN of a model module that seeds nothing. Independent re-creation for
# seedlint's test corpus, not its code.
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self, vocab, tags):
        super().__init__()
        self.embedding = nn.Embedding(vocab, 16)
        self.lstm = nn.LSTM(16, 16, bidirectional=True)
        self.head = nn.Linear(32, tags)

    def forward(self, x):
        return self.head(self.lstm(self.embedding(x))[0])
