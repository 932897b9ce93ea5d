# Mimics the PATTERN of pytest conftest files (a fixture seeding before it builds the model tests share; a data fixture seeding nothing). Independent re-creation for seedlint's test corpus, not its code.

import pytest
import torch
from torch import nn


@pytest.fixture
def seeded_mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 2))


@pytest.fixture
def batch_size():
    return 5
