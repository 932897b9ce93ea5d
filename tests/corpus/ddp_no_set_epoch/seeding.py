# Mimics the common `seed_everything` helper PATTERN of many torchrun DDP projects (random, NumPy,
# torch seeded with seed + rank, cuDNN made deterministic, a per-worker seed from torch.initial_seed).
# Independent re-creation for seedlint's test corpus, not code from any one project.
import random

import numpy as np
import torch


def seed_everything(seed, rank=0):
    random.seed(seed + rank)
    np.random.seed(seed + rank)
    torch.manual_seed(seed + rank)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)
