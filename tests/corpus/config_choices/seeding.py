# Mimics the seeding helper PATTERN of open-mmlab style set_random_seed(seed, deterministic=False) that turns benchmark mode off on request. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch


def set_random_seed(seed, deterministic=False):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if deterministic:
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
