# Mimics the PATTERN of detectron2 detectron2/data/build.py and samplers (an infinite TrainingSampler
# that shuffles with its own seeded torch.Generator, workers reseeded from torch.initial_seed()).
# Independent re-creation for seedlint's test corpus, not its code.
import itertools

import torch
from torch.utils.data import DataLoader, Sampler

from d2lite.utils.env import seed_all_rng


class TrainingSampler(Sampler):
    """Endless shuffled indices; every rank uses the same shared seed and takes its own slice."""

    def __init__(self, size, seed, rank=0, world_size=1):
        self._size, self._seed, self._rank, self._world_size = size, int(seed), rank, world_size

    def __iter__(self):
        yield from itertools.islice(self._infinite_indices(), self._rank, None, self._world_size)

    def _infinite_indices(self):
        g = torch.Generator()
        g.manual_seed(self._seed)
        while True:
            yield from torch.randperm(self._size, generator=g).tolist()


def worker_init_reset_seed(worker_id):
    initial_seed = torch.initial_seed() % 2**31
    seed_all_rng(initial_seed + worker_id)


def build_detection_train_loader(dataset, total_batch_size, num_workers, seed):
    sampler = TrainingSampler(len(dataset), seed)
    return DataLoader(
        dataset, batch_size=total_batch_size, sampler=sampler, num_workers=num_workers,
        collate_fn=lambda batch: batch, worker_init_fn=worker_init_reset_seed,
    )
