# Mimics the PATTERN of text-classification scripts (the task read from `sys.argv` at the top level, then one of the script's own functions called to build the optimizer and train through another module; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import sys

import torch
from attention import train

task = sys.argv[1]


def binary_classification(model, loader, epochs):
    loss = torch.nn.BCELoss()
    optimizer = torch.optim.RMSprop(model.parameters())
    train(model, loader, loss, optimizer, epochs)


if task == "binary":
    model = torch.nn.Sequential(torch.nn.Embedding(100, 8), torch.nn.Flatten(), torch.nn.LazyLinear(1), torch.nn.Sigmoid())
    loader = torch.utils.data.DataLoader(torch.zeros(64, 5, dtype=torch.long), batch_size=8)
    binary_classification(model, loader, epochs=3)
