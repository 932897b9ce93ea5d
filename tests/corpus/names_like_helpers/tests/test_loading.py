# Mimics the PATTERN of adapter libraries' test suites (a mock model whose `from_pretrained` seeds torch so that every test builds the same weights). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class MockModel(nn.Module):
    @classmethod
    def from_pretrained(cls, name):
        torch.manual_seed(0)
        return cls()


def test_loads():
    assert MockModel.from_pretrained("mock") is not None
