# Mimics the PATTERN of adapter libraries' test suites (a pytest fixture named `model` seeds torch before it builds the model the tests check). Independent re-creation for seedlint's test corpus, not its code.

import pytest
import torch
from torch import nn


@pytest.fixture
def model():
    torch.manual_seed(0)
    return nn.Linear(4, 4)


def test_shape(model):
    assert model(torch.ones(1, 4)).shape == (1, 4)
