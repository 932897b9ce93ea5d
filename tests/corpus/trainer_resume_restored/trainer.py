# Mimics the PATTERN of the template's trainer: a subclass that runs one epoch over a shuffling loader. Independent re-creation for seedlint's test corpus, not its code.

import torch

from base.base_trainer import BaseTrainer


class Trainer(BaseTrainer):
    def __init__(self, model, optimizer, epochs, loader, resume=None):
        super().__init__(model, optimizer, epochs, resume)
        self.loader = loader

    def _train_epoch(self, epoch):
        for x, y in self.loader:
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
