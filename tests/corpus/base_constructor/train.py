# Mimics the PATTERN of an entry script that trains a subclass whose layers its base class builds, with the seeding commented out. Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.planetoid import PlanetoidGAT


def run():
    # torch.manual_seed(42)
    model = PlanetoidGAT(features=4)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(10):
        loss = model(torch.ones(2, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    run()
