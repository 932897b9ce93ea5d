# Mimics the PATTERN of course repositories with one folder per assignment, each with its own `utils.py`: this folder's `set_seed` seeds only `random` and NumPy. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
