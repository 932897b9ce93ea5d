# Mimics the PATTERN of few-shot dataset loaders (a helper walking the image folders and collecting what it finds into a list it returns; one dataset indexes the result; another helper's list, sorted before use). Independent re-creation for seedlint's test corpus, not its code.

import os

from PIL import Image
from torch.utils.data import Dataset


def find_items(root_dir):
    found = []
    for root, _, files in os.walk(root_dir):
        for name in files:
            if name.endswith("png"):
                found.append((name, root))
    print("== Found %d items " % len(found))
    return found


def find_alphabets(root_dir):
    alphabets = []
    for entry in os.listdir(root_dir):
        alphabets.append(os.path.join(root_dir, entry))
    return alphabets


class Omniglot(Dataset):
    def __init__(self, root):
        self.items = find_items(root)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        name, folder = self.items[index]
        return Image.open(os.path.join(folder, name))


class Alphabets(Dataset):
    def __init__(self, root):
        self.alphabets = sorted(find_alphabets(root))

    def __len__(self):
        return len(self.alphabets)

    def __getitem__(self, index):
        return os.path.basename(self.alphabets[index])
