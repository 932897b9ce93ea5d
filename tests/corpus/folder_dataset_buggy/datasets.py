# Mimics the custom-dataset PATTERN of many segmentation and audio repos (files listed with
# os.listdir, noise drawn from an RNG object created in __init__), made buggy on purpose: the
# listing is unsorted and the RNG object is copied into every worker. Independent re-creation for
# seedlint's test corpus, not any project's code.
import glob
import os

import numpy as np
import torch
from torch.utils.data import Dataset


class SegmentationFolder(Dataset):
    """Images and masks paired by position in two directory listings."""

    def __init__(self, root):
        self.images = os.listdir(os.path.join(root, "images"))
        self.masks = sorted(glob.glob(os.path.join(root, "masks", "*.png")))
        self.root = root

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return os.path.join(self.root, "images", self.images[index]), self.masks[index]


class NoisyWaveforms(Dataset):
    """Waveforms with additive noise from a per-dataset generator."""

    def __init__(self, clips, noise_std=0.01, seed=0):
        self.clips = clips
        self.noise_std = noise_std
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, index):
        noise = self.rng.normal(0.0, self.noise_std, size=self.clips[index].shape)
        return torch.from_numpy(self.clips[index] + noise).float()
