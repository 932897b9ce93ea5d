# Mimics the PATTERN of image-restoration and detection datasets that make their augmentation
# "deterministic" by seeding inside `__getitem__`. Buggy: `PatchDataset` calls `random.seed(self.seed)`
# there, so every item gets the same crop offsets and flips. Look-alike: `ValidationPatches` seeds
# with `self.seed + index`, a fixed but different crop per item. Independent re-creation for
# seedlint's test corpus, not its code.
import random

import numpy as np
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


def set_random_seed(seed):
    random.seed(seed)
    torch.manual_seed(seed)


class PairedPatches(PatchDataset):
    """Pattern: paired-image datasets that draw a seed per item from `random` and reseed with it,
    so the image and its target get the same augmentation. The seed comes from the generator the
    call resets: each item's seed is fixed by the one before it, and the seeds run into a short
    cycle (the next item replays an earlier one's crop)."""

    def __getitem__(self, index):
        self.seed_da = random.randint(0, 10000)
        set_random_seed(self.seed_da)
        image = self.images[index]
        top = random.randint(0, image.shape[-2] - self.patch)
        return image[..., top:top + self.patch, :self.patch]


class NoisyPairs(PatchDataset):
    """Look-alike: the per-item seed is drawn from NumPy, which `random.seed` does not reset, so
    each item gets a new seed (the attribute is rebound on every call)."""

    def __getitem__(self, index):
        self.seed_da = int(np.random.randint(0, 10000))
        random.seed(self.seed_da)
        image = self.images[index]
        top = random.randint(0, image.shape[-2] - self.patch)
        return image[..., top:top + self.patch, :self.patch]
