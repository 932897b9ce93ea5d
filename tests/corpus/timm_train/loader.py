# Mimics the PATTERN of huggingface/pytorch-image-models timm/data/loader.py (worker seeding chosen by
# a `worker_seeding` mode, seeds taken from get_worker_info().seed, a DistributedSampler when
# distributed). Independent re-creation for seedlint's test corpus, not its code.
import random
from functools import partial

import numpy as np
import torch
from torch.utils.data import DataLoader, DistributedSampler, get_worker_info


def _worker_init(worker_id, worker_seeding="all"):
    worker_info = get_worker_info()
    assert worker_info.id == worker_id
    if callable(worker_seeding):
        seed = worker_seeding(worker_info)
        random.seed(seed)
        torch.manual_seed(seed)
        np.random.seed(seed % (2**32 - 1))
    elif worker_seeding == "all":
        np.random.seed(worker_info.seed % (2**32 - 1))


def create_loader(dataset, batch_size, is_training, distributed, num_workers=4, worker_seeding="all"):
    sampler = None
    if distributed and is_training:
        sampler = DistributedSampler(dataset)
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=sampler is None and is_training,
        num_workers=num_workers,
        sampler=sampler,
        worker_init_fn=partial(_worker_init, worker_seeding=worker_seeding),
        persistent_workers=True,
        drop_last=is_training,
    )
