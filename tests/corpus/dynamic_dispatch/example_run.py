# Mimics the PATTERN of such a library's 3D examples (`run3d = run()`, then `run3d.run(model, ..)`, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from labkit.method import run

run3d = run()
run3d.run(nn.Linear(4, 1), [torch.randn(8, 4)])
