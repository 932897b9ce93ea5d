# Mimics the custom-dataset PATTERN of many segmentation and audio repos, written the reproducible
# way: sorted listings (sorted(), list.sort(), Path.glob under sorted) and a noise RNG made per item
# from the index. Independent re-creation for seedlint's test corpus, not any project's code.
import os
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import Dataset


class SegmentationFolder(Dataset):
    """Images and masks paired by position in two sorted directory listings."""

    def __init__(self, root):
        self.images = sorted(os.listdir(os.path.join(root, "images")))
        masks = [str(path) for path in Path(root, "masks").glob("*.png")]
        masks.sort()
        self.masks = masks
        self.num_classes = len(os.listdir(os.path.join(root, "classes")))
        self.root = root

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return os.path.join(self.root, "images", self.images[index]), self.masks[index]


class NoisyWaveforms(Dataset):
    """Waveforms with additive noise; each item's noise comes from its own index-seeded RNG."""

    def __init__(self, clips, noise_std=0.01, seed=0):
        self.clips = clips
        self.noise_std = noise_std
        self.seed = seed

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, index):
        rng = np.random.default_rng([self.seed, index])
        noise = rng.normal(0.0, self.noise_std, size=self.clips[index].shape)
        return torch.from_numpy(self.clips[index] + noise).float()
