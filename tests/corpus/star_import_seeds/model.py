# Mimics the PATTERN of a sequence-tagging project whose model module seeds torch when imported.
# Independent re-creation for seedlint's test corpus, not its code.
import torch
from torch import nn

torch.manual_seed(1)


class Tagger(nn.Module):
    def __init__(self, vocab, tags):
        super().__init__()
        self.embedding = nn.Embedding(vocab, 16)
        self.lstm = nn.LSTM(16, 16, bidirectional=True)
        self.head = nn.Linear(32, tags)

    def forward(self, x):
        return self.head(self.lstm(self.embedding(x))[0])
