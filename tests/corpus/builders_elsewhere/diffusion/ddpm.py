# Mimics the PATTERN of diffusion tutorial repositories (`ddpm.py` defines the noise schedule and trains under its `__main__` block; a `noising_test.py` beside it imports its class; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class Diffusion:
    def __init__(self, steps=1000):
        self.beta = torch.linspace(1e-4, 0.02, steps)

    def noise_images(self, x, t):
        noise = torch.randn_like(x)
        return x + self.beta[t].view(-1, 1) * noise, noise


def train():
    model = nn.Linear(4, 4)
    diffusion = Diffusion()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for epoch in range(10):
        x = torch.ones(8, 4)
        t = torch.randint(0, 1000, (8,))
        noisy, noise = diffusion.noise_images(x, t)
        loss = (model(noisy) - noise).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train()
