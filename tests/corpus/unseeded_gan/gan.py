# Mimics the GAN collections' training scripts (PyTorch-GAN, DCGAN tutorials): argparse options,
# generator and discriminator built at the top level, noise from NumPy, nothing seeded. Independent
# re-creation of the pattern.

import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--n_epochs", type=int, default=2)
parser.add_argument("--latent_dim", type=int, default=8)
opt = parser.parse_args()

generator = nn.Sequential(nn.Linear(opt.latent_dim, 16), nn.ReLU(), nn.Linear(16, 4))
discriminator = nn.Sequential(nn.Linear(4, 16), nn.Dropout(0.3), nn.Linear(16, 1))
loader = DataLoader(TensorDataset(torch.ones(64, 4)), batch_size=8, shuffle=True)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-4)
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
loss = nn.BCEWithLogitsLoss()

for epoch in range(opt.n_epochs):
    for (real,) in loader:
        z = torch.tensor(np.random.normal(0, 1, (real.shape[0], opt.latent_dim)), dtype=torch.float)
        optimizer_G.zero_grad()
        g_loss = loss(discriminator(generator(z)), torch.ones(real.shape[0], 1))
        g_loss.backward()
        optimizer_G.step()
        optimizer_D.zero_grad()
        fake = generator(z).detach()
        d_loss = loss(discriminator(real), torch.ones(real.shape[0], 1)) + loss(
            discriminator(fake), torch.zeros(real.shape[0], 1)
        )
        d_loss.backward()
        optimizer_D.step()
