# Mimics the PATTERN of adapter libraries' pytest tests (fixtures seeding before they build the model, a class fixture, an autouse fixture seeding only at teardown). Independent re-creation for seedlint's test corpus, not its code.

import pytest
import torch
from torch import nn


@pytest.fixture
def restore_seed():
    yield
    torch.manual_seed(0)  # teardown: after the test


def test_save_load_same_output(seeded_mlp, batch_size):
    inputs = torch.randn(batch_size, 10)  # after the fixture's seed
    torch.manual_seed(56)
    adapter = nn.Linear(20, 20)
    assert torch.allclose(seeded_mlp(inputs), seeded_mlp(inputs)) and adapter.weight.std() > 0


def test_unseeded_input(batch_size, restore_seed):
    inputs = torch.randn(batch_size, 10)  # neither fixture seeds before the test
    torch.manual_seed(3)
    model = nn.Linear(10, 2)
    assert torch.allclose(model(inputs), model(inputs))


class TestShira:
    @pytest.fixture
    def mlp(self):
        torch.manual_seed(0)
        return nn.Sequential(nn.Linear(10, 20), nn.Linear(20, 2))

    def test_multiple_adapters(self, mlp):
        inputs = torch.randn(5, 10)
        torch.manual_seed(67)
        second = nn.Linear(20, 2)
        assert torch.allclose(second(mlp[0](inputs)), second(mlp[0](inputs)))


class TestAutouseSeed:
    @pytest.fixture(autouse=True)
    def _seed_everything(self):
        torch.manual_seed(11)

    def test_dropout_mask(self):
        mask = torch.rand(4) > 0.5  # after the autouse fixture's seed
        torch.manual_seed(12)
        assert torch.equal(mask & (torch.rand(4) > 2), torch.zeros(4, dtype=torch.bool))
