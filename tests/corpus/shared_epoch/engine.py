# Mimics the PATTERN of keyword-spotting projects whose one epoch routine serves training and evaluation: `training = optimizer is not None` decides the mode, the backward pass and the step. Independent re-creation for seedlint's test corpus, not its code.

import torch


def run_epoch(model, loader, optimizer=None):
    training = optimizer is not None
    model.train(mode=training)
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        if training:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += float(loss)
    return total
