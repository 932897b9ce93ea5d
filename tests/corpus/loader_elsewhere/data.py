# Mimics the PATTERN of projects whose data module builds the training loader over a `DistributedSampler` and returns it, or returns the loader's keyword arguments with the sampler. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def build_loader(batch_size):
    dataset = TensorDataset(torch.randn(64, 4))
    sampler = DistributedSampler(dataset)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler)


def loader_kwargs(dataset):
    return {"sampler": DistributedSampler(dataset), "batch_size": 8}
