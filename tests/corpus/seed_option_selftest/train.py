# Mimics the PATTERN of training scripts that parse a seeding option but call `np.random.seed(0)` and `torch.manual_seed(0)` with constants. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import numpy as np
import torch
from torch import nn

from data_utils import Corpus

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1111)
parser.add_argument("--lr", type=float, default=0.1)
args = parser.parse_args()

np.random.seed(0)
torch.manual_seed(0)
model = nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
for batch in Corpus(list(range(20))).batches(4):
    loss = model(batch.float()).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
