# Mimics the value and reward heads of RLHF projects (a value head whose weight and bias start at zero; a reward head whose bias alone is zeroed). Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class ValueHead(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        head = nn.Linear(hidden_size, 1)
        head.weight.data.zero_()
        head.bias.data.zero_()
        self.head = head

    def forward(self, hidden):
        return self.head(hidden)


class RewardHead(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        head = nn.Linear(hidden_size, 1)
        head.bias.data.zero_()
        self.head = head

    def forward(self, hidden):
        return self.head(hidden)
