# Mimics the PATTERN of text-classification repositories (the training function lives in a package module: backward and step). Independent re-creation for seedlint's test corpus, not its code.

import torch


def train(model, loader, criterion, optimizer, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
