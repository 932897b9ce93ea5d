# Mimics the PATTERN of a tabular self-supervised project's example folder: its notebook imports
# these helpers as `example.utils` after putting the repository on `sys.path`. Independent
# re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch


def fix_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def train_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x).squeeze(1), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
