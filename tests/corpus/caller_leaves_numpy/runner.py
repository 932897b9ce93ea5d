# Mimics the runner PATTERN of training projects whose Runner.train reseeds torch and shuffles with NumPy. Independent re-creation for seedlint's test corpus, not its code.

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
