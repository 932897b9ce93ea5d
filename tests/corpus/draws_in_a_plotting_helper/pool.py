# Mimics the PATTERN of the look-alike beside it: a helper, called with literals before the seed, draws random indices into a list of the module that training reads after the seed. Independent re-creation for seedlint's test corpus, not its code.

import random

import torch
from torch import nn

POOL = []


def fill_pool(count):
    POOL.extend(random.sample(range(100), count))


fill_pool(10)

random.seed(0)
torch.manual_seed(0)
model = nn.Linear(len(POOL), 10)
order = random.sample(POOL, len(POOL))
