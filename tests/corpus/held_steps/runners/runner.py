# Mimics the PATTERN of the progressive-GAN runner: `__init__` binds `self.step` to one of two
# step classes by the loss's name, and `train()` drives them from a nested `_step` function.
# Independent re-creation for seedlint's test corpus, not its code.
import torch

from runners.train_step import TrainLSGAN, TrainWGAN


class Runner:
    def __init__(self, G, D, loader, loss):
        self.loader = loader
        optim_G = torch.optim.Adam(G.parameters())
        optim_D = torch.optim.Adam(D.parameters())
        if loss == "lsgan":
            self.step = TrainLSGAN(G, D, optim_G, optim_D)
        elif loss == "wgan":
            self.step = TrainWGAN(G, D, optim_G, optim_D)

    def train(self):
        def _step(loader):
            for real in loader:
                self.step.train_D(real)
                self.step.train_G(real.size(0))

        for _ in range(3):
            _step(self.loader)

    def render(self):
        return self.step.sample(4)
