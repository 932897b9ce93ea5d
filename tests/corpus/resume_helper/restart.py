# Mimics the look-alike PATTERN of tabular-model trainers that load a checkpoint's epoch and then set `start_epoch = 1` before the loop (the loaded epoch never reaches it). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def load_checkpoint(path, model, optimizer):
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    return checkpoint["epoch"], model, optimizer


def fit(resume_dir, max_epochs, loader):
    torch.manual_seed(1)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.Adam(model.parameters())
    if resume_dir:
        start_epoch, model, optimizer = load_checkpoint(resume_dir, model, optimizer)
    start_epoch = 1
    for epoch in range(start_epoch, max_epochs + 1):
        for batch in loader:
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
