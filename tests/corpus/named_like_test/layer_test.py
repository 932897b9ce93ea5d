# Mimics the PATTERN of a test module that also runs its tests from a `__main__` block: its training step serves a check, not a training run. Independent re-creation for seedlint's test corpus, not its code.

import torch

from model import GCN


def test_one_step_lowers_the_loss():
    model = GCN(3, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    adjacency, x, y = torch.eye(4), torch.ones(4, 3), torch.tensor([0, 1, 0, 1])
    before = torch.nn.functional.cross_entropy(model(adjacency, x), y)
    before.backward()
    optimizer.step()
    after = torch.nn.functional.cross_entropy(model(adjacency, x), y)
    assert after <= before


if __name__ == "__main__":
    test_one_step_lowers_the_loss()
