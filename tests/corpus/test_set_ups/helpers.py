# Mimics the PATTERN of attribution libraries' test helpers (a base test case whose setUp seeds every generator before each test). Independent re-creation for seedlint's test corpus, not its code.

import random
import unittest

import numpy as np
import torch


def set_all_random_seeds(seed: int = 1234) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


class BaseTest(unittest.TestCase):
    def setUp(self) -> None:
        set_all_random_seeds(1234)


class PlainBaseTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tolerance = 1e-5
