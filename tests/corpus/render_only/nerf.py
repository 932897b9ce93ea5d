# Mimics the PATTERN of NeRF / 3D-reconstruction projects (one class holding the network, a `fit` method that trains it and a `render` method for the trained model). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class Reconstruction:
    def __init__(self, width):
        self.network = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, 4))
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=5e-4)

    def fit(self, rays, colors, steps):
        for step in range(steps):
            batch = torch.randint(0, len(rays), (64,))
            loss = (self._shade(rays[batch]) - colors[batch]).pow(2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def render(self, rays):
        with torch.no_grad():
            return self._shade(rays)

    def _shade(self, rays):
        return torch.sigmoid(self.network(rays))[..., :3]
