# Mimics the PATTERN of projects whose configuration module seeds `random` and NumPy when imported (torch is left alone). Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np

SEED = 0
random.seed(SEED)
np.random.seed(SEED)
LR = 0.1
