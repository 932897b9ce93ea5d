# Mimics the training script of an image-restoration project (see datasets.py): seeds every library
# once at start-up, then trains a small denoiser on random patches. Independent re-creation for
# seedlint's test corpus, not its code.
import random

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

from datasets import PatchDataset, ValidationPatches, make_images

SEED = 3


def main():
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    images = make_images()
    train = DataLoader(PatchDataset(images, seed=SEED), batch_size=8, shuffle=True)
    valid = DataLoader(ValidationPatches(images, seed=SEED), batch_size=8)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for patches in train:
            noisy = patches + 0.1 * torch.randn_like(patches)
            loss = (model(noisy) - patches).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            score = sum((model(p) - p).pow(2).mean().item() for p in valid)
        print(epoch, round(score, 4))


if __name__ == "__main__":
    main()
