# Mimics the PATTERN of small training scripts with their own `seed_everything(seed=None)` that hands the seed straight to `random.seed` and `np.random.seed`, called without one. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch


def seed_everything(seed=None):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed if seed is not None else 0)


seed_everything()
indices = np.random.permutation(100)
print(indices[:5], random.random())
