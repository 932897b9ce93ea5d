# Mimics the PATTERN of a framework's internal test utilities (a module-level input drawn at import, before the other test module's helper seeds: the inputs differ in every process). Independent re-creation for seedlint's test corpus, not its code.

import torch
from common_cases import get_new_module_tests

shared_input = torch.randn(10, 8)
module_tests = get_new_module_tests()
