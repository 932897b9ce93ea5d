# Mimics the PATTERN of a sequence-to-sequence project's model module, whose copy-attention class was renamed long ago. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        return self.out(self.embed(tokens))
