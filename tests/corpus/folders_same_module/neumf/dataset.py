# Mimics the PATTERN of another model's folder whose `dataset.py` seeds Python's `random` when imported, for its negative sampling. Independent re-creation for seedlint's test corpus, not its code.

import random

from torch.utils.data import Dataset

random.seed(42)


class InteractionDataset(Dataset):
    def __init__(self, users, items):
        self.pairs = list(zip(users, items))

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, index):
        return self.pairs[index]


def negative_samples(items, count):
    return random.sample(items, count)
