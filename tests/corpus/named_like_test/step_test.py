# Mimics the PATTERN of a test module with no `__main__` block whose top level builds a shared fixture: a test runner collects its test, so its unseeded training step serves a check. Independent re-creation for seedlint's test corpus, not its code.

import torch

from model import GCN

MODEL = GCN(3, 2)


def test_a_step_changes_the_weights():
    optimizer = torch.optim.SGD(MODEL.parameters(), lr=0.1)
    before = MODEL.weight.detach().clone()
    loss = MODEL(torch.eye(4), torch.ones(4, 3)).sum()
    loss.backward()
    optimizer.step()
    assert not torch.equal(before, MODEL.weight)
