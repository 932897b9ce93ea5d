# Mimics the PATTERN of skeleton-based action-recognition scripts whose `worker_init_fn` seeds the CUDA generators (and, in a second loader's, torch's own) with a constant, beside NumPy and `random` seeded from the worker id. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Skeletons(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, index):
        shift = np.random.randint(0, 4)
        noise = torch.rand(3, 16) * 0.01
        return (torch.zeros(3, 16) + noise).roll(shift, dims=1)


def init_seed(worker_id):
    torch.cuda.manual_seed_all(1)
    np.random.seed(1 + worker_id)
    random.seed(1 + worker_id)


def init_seed_torch(worker_id):
    torch.cuda.manual_seed_all(1)
    torch.manual_seed(1)
    np.random.seed(1 + worker_id)


if __name__ == "__main__":
    torch.manual_seed(1)
    train = DataLoader(Skeletons(), batch_size=8, num_workers=4, worker_init_fn=init_seed)
    test = DataLoader(Skeletons(), batch_size=8, num_workers=4, worker_init_fn=init_seed_torch)
    for batch in train:
        print(batch.sum())
