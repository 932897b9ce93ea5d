# Mimics the PATTERN of open-mmlab/mmdetection mmdet/apis/train.py (init_random_seed draws a seed
# from NumPy when none is given; set_random_seed seeds random, NumPy, torch and CUDA and optionally
# sets the cuDNN flags). Independent re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch


def init_random_seed(seed=None):
    """The seed to use: the given one, or a fresh random one (logged, so the run can be repeated)."""
    if seed is not None:
        return seed
    return np.random.randint(2**31)


def set_random_seed(seed, deterministic=False):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    if deterministic:
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
