# Mimics the synthetic dataset PATTERN of facebookresearch/dlrm RandomDataset (reset_seed_on_access: reseed at index 0 of every pass) beside a per-item reseed. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class SyntheticClicks(Dataset):
    def __init__(self, seed, reset_seed_on_access):
        self.seed = seed
        self.reset_seed_on_access = reset_seed_on_access

    def __len__(self):
        return 64

    def __getitem__(self, index):
        if self.reset_seed_on_access and index == 0:
            np.random.seed(self.seed)
        return np.random.rand(4).astype("float32")


class NoisyClicks(Dataset):
    def __init__(self, seed):
        self.seed = seed

    def __len__(self):
        return 64

    def __getitem__(self, index):
        np.random.seed(self.seed)
        return np.random.rand(4).astype("float32")


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    for dataset in (SyntheticClicks(7, True), NoisyClicks(7)):
        for batch in DataLoader(dataset, batch_size=8):
            print(batch.mean())
