# Mimics the PATTERN of a framework's internal test utilities (a helper that seeds torch before it builds the test cases, called by other test modules). Independent re-creation for seedlint's test corpus, not its code.

import torch


def get_new_module_tests():
    torch.manual_seed(0)
    return [{"input": torch.randn(2, 3)}]
