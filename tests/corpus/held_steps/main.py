# Mimics the PATTERN of the progressive-GAN script: builds the networks and the runner and calls
# `train()`, seeding nothing (SL112). Independent re-creation for seedlint's test corpus, not its
# code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from runners.runner import Runner

G = nn.Linear(8, 4)
D = nn.Linear(4, 1)
loader = DataLoader(torch.ones(32, 4), batch_size=8, shuffle=True)
runner = Runner(G, D, loader, "lsgan")
runner.train()
