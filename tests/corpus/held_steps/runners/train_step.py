# Mimics the PATTERN of progressive-GAN projects whose training steps live in loss-specific
# classes: each `train_D`/`train_G` runs a backward pass and steps its optimizer. Independent
# re-creation for seedlint's test corpus, not its code.
import torch


class TrainLSGAN:
    def __init__(self, G, D, optim_G, optim_D):
        self.G, self.D = G, D
        self.optim_G, self.optim_D = optim_G, optim_D

    def train_D(self, real):
        fake = self.G(torch.randn(real.size(0), 8)).detach()
        loss = (self.D(real) - 1).pow(2).mean() + self.D(fake).pow(2).mean()
        self.optim_D.zero_grad()
        loss.backward()
        self.optim_D.step()

    def train_G(self, batch):
        loss = (self.D(self.G(torch.randn(batch, 8))) - 1).pow(2).mean()
        self.optim_G.zero_grad()
        loss.backward()
        self.optim_G.step()

    def sample(self, count):
        with torch.no_grad():
            return self.G(torch.zeros(count, 8))


class TrainWGAN(TrainLSGAN):
    def train_D(self, real):
        fake = self.G(torch.randn(real.size(0), 8)).detach()
        loss = self.D(fake).mean() - self.D(real).mean()
        self.optim_D.zero_grad()
        loss.backward()
        self.optim_D.step()
