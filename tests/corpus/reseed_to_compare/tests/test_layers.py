# Mimics the unit-test PATTERN of large model libraries (reseed-to-compare: `torch.manual_seed(42)` before the reference computation and again before the one under test; inputs drawn before; a loop reseeding for each variant). Independent re-creation for seedlint's test corpus, not its code.

import pytest
import torch
from torch import nn

from layers import FusedDropoutAdd, reference


def test_fused_matches_reference():
    x, residual = torch.randn(8, 16), torch.randn(8, 16)
    torch.manual_seed(42)
    expected = reference(x, residual, 0.1)
    torch.manual_seed(42)
    actual = FusedDropoutAdd(0.1)(x, residual)
    assert torch.allclose(expected, actual)


@pytest.mark.parametrize("p", [0.0, 0.5])
def test_gradients_match_for_every_width(p):
    x = torch.randn(4, 8, requires_grad=True)
    for width in (8, 16, 32):
        torch.manual_seed(0)
        layer = nn.Sequential(nn.Linear(8, width), nn.Dropout(p))
        layer(x).sum().backward()
        torch.manual_seed(0)
        again = nn.Sequential(nn.Linear(8, width), nn.Dropout(p))
        again(x).sum().backward()
        assert torch.equal(layer[0].weight.grad, again[0].weight.grad)


def test_seeded_once_too_late():
    model = nn.Linear(8, 2)
    torch.manual_seed(0)
    out = model(torch.randn(3, 8))
    assert torch.allclose(out.sum(), torch.tensor(0.4242), atol=1e-4)
