# Mimics the PATTERN of facebookresearch/detectron2 detectron2/utils/env.py seed_all_rng (a random
# seed from pid, clock and urandom when none is given; PYTHONHASHSEED written into os.environ).
# Independent re-creation for seedlint's test corpus, not its code.
import os
import random
from datetime import datetime

import numpy as np
import torch


def seed_all_rng(seed=None):
    """Seed numpy, torch and random; with no seed, pick a fresh one and log it."""
    if seed is None:
        seed = os.getpid() + int(datetime.now().strftime("%S%f")) + int.from_bytes(os.urandom(2), "big")
        print(f"Using a generated random seed {seed}")
    np.random.seed(seed)
    torch.manual_seed(seed)
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
