# Mimics the PATTERN of a tutorial repository's knowledge-graph folder: its seeding helper. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch


def set_random_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
