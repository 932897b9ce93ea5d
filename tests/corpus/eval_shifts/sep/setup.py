# Mimics the PATTERN of source-separation training setups (torch seeded before the model is built). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def get_solver(seed):
    torch.manual_seed(seed)
    return nn.Conv1d(2, 2, 3, padding=1)
