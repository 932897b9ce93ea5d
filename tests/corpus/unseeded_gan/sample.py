# Mimics the sampling scripts beside those GANs: a trained generator loaded and run, nothing
# trained. Independent re-creation of the pattern.

import torch
from torch import nn

generator = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
generator.load_state_dict(torch.load("generator.pt"))
with torch.no_grad():
    print(generator(torch.randn(4, 8)))
