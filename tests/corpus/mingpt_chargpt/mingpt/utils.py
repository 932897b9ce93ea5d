# Mimics the PATTERN of karpathy/minGPT mingpt/utils.py set_seed (random, NumPy, torch, CUDA).
# Independent re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
