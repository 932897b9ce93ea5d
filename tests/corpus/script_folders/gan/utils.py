# Mimics the PATTERN of another assignment's helper module of the same name, whose `set_seed` seeds every generator. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
