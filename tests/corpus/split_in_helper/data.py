# Mimics the PATTERN of self-supervised projects whose data module splits the training set with `random_split` inside helper functions that the evaluation scripts call, and returns loaders over random samplers. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, SubsetRandomSampler, TensorDataset, random_split


def get_datasets(n_val):
    full = TensorDataset(torch.arange(100.0))
    return random_split(full, [len(full) - n_val, n_val])


def get_folds(n_val):
    full = TensorDataset(torch.arange(100.0))
    return random_split(full, [len(full) - n_val, n_val])


def make_loaders(dataset, n_val):
    indices = list(range(len(dataset)))
    train_loader = DataLoader(dataset, sampler=SubsetRandomSampler(indices[n_val:]))
    val_loader = DataLoader(dataset, sampler=SubsetRandomSampler(indices[:n_val]))
    return train_loader, val_loader
