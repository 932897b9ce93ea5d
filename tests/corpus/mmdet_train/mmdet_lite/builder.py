# Mimics the PATTERN of open-mmlab/mmdetection mmdet/datasets/builder.py build_dataloader (a
# worker_init_fn bound with functools.partial to num_workers, rank and seed, and a worker seed of
# num_workers * rank + worker_id + seed). Independent re-creation for seedlint's test corpus.
import random
from functools import partial

import numpy as np
import torch
from torch.utils.data import DataLoader, DistributedSampler


def worker_init_fn(worker_id, num_workers, rank, seed):
    worker_seed = num_workers * rank + worker_id + seed
    np.random.seed(worker_seed)
    random.seed(worker_seed)
    torch.manual_seed(worker_seed)


def build_dataloader(dataset, samples_per_gpu, workers_per_gpu, rank, world_size, seed, dist=True):
    if dist:
        sampler = DistributedSampler(dataset, world_size, rank, shuffle=True, seed=seed)
        shuffle = False
    else:
        sampler = None
        shuffle = True
    init_fn = partial(worker_init_fn, num_workers=workers_per_gpu, rank=rank, seed=seed)
    return DataLoader(
        dataset, batch_size=samples_per_gpu, sampler=sampler, shuffle=shuffle,
        num_workers=workers_per_gpu, worker_init_fn=init_fn, pin_memory=False,
    )
