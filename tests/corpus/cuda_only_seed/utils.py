# Mimics a `set_seed` helper PATTERN seen in many research repos, made buggy on purpose: torch is
# seeded only through torch.cuda.manual_seed_all (the CPU generator stays unseeded) and one cuDNN
# flag is misspelled. Independent re-creation for seedlint's test corpus, not any project's code.
import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.determinstic = True
    torch.backends.cudnn.benchmark = False
