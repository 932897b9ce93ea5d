# Mimics the PATTERN of segmentation dataset loaders (file listings kept per split in a dict attribute, read by index in __getitem__; one listing sorted, one not). Independent re-creation for seedlint's test corpus, not its code.

import glob
import os

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class CityscapesSegmentation(Dataset):
    def __init__(self, root, split="train"):
        self.split = split
        self.files = {}
        self.files[split] = glob.glob(os.path.join(root, "leftImg8bit", split, "*", "*.png"))

    def __len__(self):
        return len(self.files[self.split])

    def __getitem__(self, index):
        image = Image.open(self.files[self.split][index]).convert("RGB")
        return torch.from_numpy(np.asarray(image).copy())


class CamvidSegmentation(Dataset):
    def __init__(self, root, split="train"):
        self.split = split
        self.files = {}
        self.files[split] = sorted(os.listdir(os.path.join(root, split)))
        self.root = root

    def __len__(self):
        return len(self.files[self.split])

    def __getitem__(self, index):
        path = os.path.join(self.root, self.split, self.files[self.split][index])
        return torch.from_numpy(np.asarray(Image.open(path)).copy())
