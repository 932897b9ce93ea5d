# Mimics the PATTERN of text-generation scripts (the same `Execution(args)` bound on both sides of an `if` on the mode, then `execution.train(args)`, a method of the script's own class that trains; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import sys

import torch
from torch import nn


class Execution:
    def __init__(self, args):
        self.model = nn.LSTM(8, 16, batch_first=True)
        self.head = nn.Linear(16, 8)

    def train(self, args):
        parameters = list(self.model.parameters()) + list(self.head.parameters())
        optimizer = torch.optim.RMSprop(parameters, lr=0.01)
        for epoch in range(5):
            output, _ = self.model(torch.ones(4, 10, 8))
            loss = self.head(output).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--resume":
        execution = Execution(args)
    else:
        execution = Execution(args)
    execution.train(args)
