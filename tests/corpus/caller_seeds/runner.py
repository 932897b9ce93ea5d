# Mimics the runner PATTERN of training projects whose Runner.train reseeds torch and shuffles with NumPy, with library helpers beside it. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch import nn


class Runner:
    def __init__(self, args):
        self.args = args

    def train(self):
        torch.manual_seed(self.args.seed)
        model = nn.Linear(8, 2)
        order = np.random.permutation(100)
        for index in order:
            model(torch.full((8,), float(index))).sum().backward()
        return model


def sample_noise(seed):
    """A library function nothing here calls: its caller may seed NumPy."""
    torch.manual_seed(seed)
    return np.random.rand(3) + torch.rand(3).numpy()


def build_head(seed):
    """A library function that draws before its own seeding: that seed does not control the draw."""
    head = nn.Linear(8, 2)
    torch.manual_seed(seed)
    return head, torch.randn(2)
