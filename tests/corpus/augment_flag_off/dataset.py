# Mimics the PATTERN of audio-classification datasets that hold a NumPy generator for augmentation and draw from it only when built with `augment=True`. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch.utils.data import Dataset


class Clips(Dataset):
    def __init__(self, clips, augment=True, seed=0):
        self.clips = clips
        self.augment = augment
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, index):
        clip = self.clips[index]
        if self.augment:
            clip = clip + self.rng.normal(0.0, 0.01, size=clip.shape)
        return torch.as_tensor(clip, dtype=torch.float32)
