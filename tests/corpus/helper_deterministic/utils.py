# Mimics the PATTERN of a project's seeding helpers: one seeds every library and turns deterministic algorithms on, the other only seeds. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)


def seed_only(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
