# Mimics the PATTERN of the library's unit tests (models built with their default `random_state`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from models import SequenceModel


def test_fit_reduces_loss():
    model = SequenceModel(nn.Linear(8, 8), n_iter=5)
    model.fit(torch.ones(4, 8))
