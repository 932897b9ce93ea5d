# Mimics the PATTERN of launchers whose `mp.spawn` target lives in another module and seeds
# itself per rank. Independent re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch
from torch import nn


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _train(rank):
    model = nn.Linear(10, 1).cuda(rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(4, 10).cuda(rank)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_worker(rank, args):
    seed_everything(args.seed + rank)
    _train(rank)


def train_worker_unseeded(rank, args):
    _train(rank)
