# Mimics the PATTERN of a teaching book's trainer class: `train(n_epochs, seed=42)` calls
# `set_seed`, which seeds torch, NumPy and `random` and then the loader's own generator through the
# object that holds it (`self.train_loader.sampler.generator.manual_seed(seed)`). Independent
# re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch


class StepByStep:
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.train_loader = None

    def set_loaders(self, train_loader):
        self.train_loader = train_loader

    def set_seed(self, seed=42):
        torch.manual_seed(seed)
        np.random.seed(seed)
        random.seed(seed)
        try:
            self.train_loader.sampler.generator.manual_seed(seed)
        except AttributeError:
            pass

    def train(self, n_epochs, seed=42):
        self.set_seed(seed)
        for _ in range(n_epochs):
            for x, y in self.train_loader:
                loss = self.loss_fn(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
