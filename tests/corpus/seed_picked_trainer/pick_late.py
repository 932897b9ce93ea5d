# Mimics the look-alike of the seed-picking PATTERN: a random draw kept as data (not the seed) before `set_seed`, in a script that picks no seed. Independent re-creation for seedlint's test corpus, not its code.

import random

import torch
from torch import nn
from transformers import set_seed

dropout_rate = random.uniform(0.1, 0.5)
set_seed(0)
model = nn.Sequential(nn.Linear(4, 2), nn.Dropout(dropout_rate))
print(model(torch.randn(1, 4)))
