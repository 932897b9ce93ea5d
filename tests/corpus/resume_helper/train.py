# Mimics the PATTERN of WaveGlow / Tacotron-style training scripts (a project `load_checkpoint` returning `model, optimizer, iteration`, the epoch loop starting from a name computed from the iteration, no generator state saved or restored). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def load_checkpoint(path, model, optimizer):
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return model, optimizer, checkpoint["iteration"]


def train(checkpoint_path, epochs, loader):
    torch.manual_seed(1234)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.Adam(model.parameters())
    iteration = 0
    if checkpoint_path:
        model, optimizer, iteration = load_checkpoint(checkpoint_path, model, optimizer)
        iteration += 1
    epoch_offset = max(0, int(iteration / len(loader)))
    for epoch in range(epoch_offset, epochs):
        for batch in loader:
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "iteration": iteration}, "last.pt")
