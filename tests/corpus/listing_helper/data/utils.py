# Mimics the PATTERN of classification projects whose data module collects each class folder's `glob` into one list of paths and returns it with the labels, for the training script to hand to the module's dataset. Independent re-creation for seedlint's test corpus, not its code.

import glob
import os

from torch.utils.data import Dataset


class ImageDataset(Dataset):
    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return self.paths[index], self.labels[index]


def load_paths_and_labels(root):
    paths, labels = [], []
    for label, name in enumerate(sorted(os.listdir(root))):
        found = glob.glob(os.path.join(root, name, "*.jpg"))
        paths += found
        labels += [label] * len(found)
    return paths, labels


def count_images(root):
    return glob.glob(os.path.join(root, "*", "*.jpg"))


def list_checkpoints(folder):
    return glob.glob(os.path.join(folder, "*.pth"))
