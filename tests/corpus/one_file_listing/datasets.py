# Mimics the dataset PATTERN of milesial/Pytorch-UNet BasicDataset (ids from a listing; one mask file found per id by glob and asserted). Independent re-creation for seedlint's test corpus, not its code.

import os
from pathlib import Path

from PIL import Image
from torch.utils.data import Dataset


class SegmentationDataset(Dataset):
    def __init__(self, images_dir, masks_dir):
        self.images_dir = Path(images_dir)
        self.masks_dir = Path(masks_dir)
        self.ids = [os.path.splitext(name)[0] for name in os.listdir(images_dir)]

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, index):
        name = self.ids[index]
        mask_file = list(self.masks_dir.glob(name + "_mask.*"))
        img_file = list(self.images_dir.glob(name + ".*"))
        assert len(mask_file) == 1, f"one mask expected for {name}"
        assert len(img_file) == 1, f"one image expected for {name}"
        return Image.open(img_file[0]), Image.open(mask_file[0])
