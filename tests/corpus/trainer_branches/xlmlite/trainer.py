# Mimics the PATTERN of XLM-style trainer classes (a base `Trainer.optimize` that backpropagates and steps, subclasses whose `*_step` methods call it). Independent re-creation for seedlint's test corpus, not its code.

import torch


class Trainer:
    def __init__(self, modules):
        self.modules = modules
        self.optimizer = torch.optim.Adam([p for m in modules for p in m.parameters()])

    def optimize(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class SingleTrainer(Trainer):
    def mlm_step(self, batch):
        self.optimize(self.modules[0](batch).pow(2).mean())


class EncDecTrainer(Trainer):
    def mt_step(self, batch):
        self.optimize(self.modules[1](self.modules[0](batch)).pow(2).mean())
