# Mimics the sampling scripts beside RLHF projects (the seeding helper called without its seed, then samples drawn). Independent re-creation for seedlint's test corpus, not its code.

import torch

import utils

utils.seed_everything()
print(torch.randn(4))
