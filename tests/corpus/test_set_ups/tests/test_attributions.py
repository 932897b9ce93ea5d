# Mimics the PATTERN of attribution libraries' unit tests (a model built in a test that a base class's setUp has seeded, then a second seed for the sampling; beside it a base whose setUp seeds nothing). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from helpers import BaseTest, PlainBaseTest


class TestGradientShap(BaseTest):
    def test_linear_model(self):
        model = nn.Linear(5, 1)  # after setUp's seed: the same model every run
        torch.manual_seed(0)
        baselines = torch.randn(20, 5)
        self.assertTrue(torch.allclose(model(baselines), model(baselines)))


class TestFeaturePermutation(PlainBaseTest):
    def test_permuted_scores(self):
        model = nn.Linear(5, 1)  # setUp seeds nothing: drawn before the seed below
        torch.manual_seed(0)
        inputs = torch.randn(20, 5)
        self.assertTrue(torch.allclose(model(inputs), model(inputs)))


class LocalSetUp(BaseTest):
    def setUp(self):
        torch.manual_seed(7)

    def test_noise(self):
        noise = torch.rand(3)
        torch.manual_seed(1)
        self.assertTrue(torch.all(noise + torch.rand(3) >= 0))
