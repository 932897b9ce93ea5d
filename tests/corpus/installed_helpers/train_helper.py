# Mimics the PATTERN of lab projects that seed through their own installed helper package (`from labkit.utils import set_randomness`, `set_randomness(args.seed)`), not part of the repository. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import numpy as np
import torch
from labkit.utils import set_randomness
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
set_randomness(args.seed)

model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.from_numpy(np.random.randn(8, 4)).float()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
