# Mimics the benchmark script PATTERN of training scripts that turn benchmark mode on and call the seeding helper without asking for determinism. Independent re-creation for seedlint's test corpus, not its code.

import torch

from seeding import set_random_seed

torch.backends.cudnn.benchmark = True
set_random_seed(0)
model = torch.nn.Conv2d(3, 8, 3).cuda()
print(model(torch.ones(1, 3, 8, 8, device="cuda")).sum())
