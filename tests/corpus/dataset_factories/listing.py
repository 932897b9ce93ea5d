# Mimics the PATTERN of image datasets built by a factory classmethod from a helper that chains `glob` listings (`itertools.chain`), with a sorted look-alike. Independent re-creation for seedlint's test corpus, not its code.

import glob
import itertools

from torch.utils.data import Dataset


def list_images(root):
    return list(itertools.chain(glob.glob(f"{root}/*.png"), glob.glob(f"{root}/*.jpg")))


def list_images_sorted(root):
    return sorted(itertools.chain(glob.glob(f"{root}/*.png"), glob.glob(f"{root}/*.jpg")))


class ImageFolder(Dataset):
    def __init__(self, files):
        self.files = files

    @classmethod
    def from_folder(cls, root):
        return cls(list_images(root))

    @classmethod
    def from_folder_sorted(cls, root):
        return cls(list_images_sorted(root))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        return self.files[index]
