# Mimics the PATTERN of image-restoration and detection datasets that make their augmentation
# "deterministic" by seeding inside `__getitem__`. Buggy: `PatchDataset` calls `random.seed(self.seed)`
# there, so every item gets the same crop offsets and flips. Look-alike: `ValidationPatches` seeds
# with `self.seed + index`, a fixed but different crop per item. Independent re-creation for
# seedlint's test corpus, not its code.
import random

import torch
from torch.utils.data import Dataset


class PatchDataset(Dataset):
    def __init__(self, images, patch=8, seed=0):
        self.images = images
        self.patch = patch
        self.seed = seed

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        random.seed(self.seed)
        image = self.images[index]
        top = random.randint(0, image.shape[-2] - self.patch)
        left = random.randint(0, image.shape[-1] - self.patch)
        crop = image[..., top:top + self.patch, left:left + self.patch]
        if random.random() < 0.5:
            crop = crop.flip(-1)
        return crop


class ValidationPatches(PatchDataset):
    def __getitem__(self, index):
        random.seed(self.seed + index)
        image = self.images[index]
        top = random.randint(0, image.shape[-2] - self.patch)
        return image[..., top:top + self.patch, :self.patch]


def make_images(count=32, size=16):
    generator = torch.Generator().manual_seed(0)
    return [torch.rand(3, size, size, generator=generator) for _ in range(count)]
