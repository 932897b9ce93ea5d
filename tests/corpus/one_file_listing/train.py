# Mimics the training script PATTERN of milesial/Pytorch-UNet train.py (a seeded random_split, a shuffling loader). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, random_split

from datasets import SegmentationDataset

torch.manual_seed(0)
dataset = SegmentationDataset("data/imgs", "data/masks")
train_set, val_set = random_split(dataset, [0.9, 0.1], generator=torch.Generator().manual_seed(0))
loader = DataLoader(train_set, batch_size=4, shuffle=True)
for images, masks in loader:
    pass
