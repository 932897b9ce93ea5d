# Mimics the PATTERN of a module of training helpers beside it: it defines a function that runs a backward pass and calls none of its functions at its top level. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def denoising_step(model, optimizer, x):
    noise = torch.randn_like(x)
    loss = nn.functional.mse_loss(model(x + noise), noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


STEP_NAMES = [denoising_step.__name__]
