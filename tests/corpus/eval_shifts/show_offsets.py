# Mimics the PATTERN of source-separation demo scripts (torch seeded, a few random offsets drawn only to print them). Independent re-creation for seedlint's test corpus, not its code.

import random

import torch

torch.manual_seed(0)
offsets = random.sample(range(8000), k=3)
print(offsets)
