# Mimics the helpers PATTERN of Hugging Face test utilities (a module-level random.Random() seeded before use) beside one never seeded. Independent re-creation for seedlint's test corpus, not its code.

import random

import torch

torch.manual_seed(0)
global_rng = random.Random()
global_rng.seed(42)
picker = random.Random()


def ids_tensor(shape, vocab_size):
    values = [global_rng.randint(0, vocab_size - 1) for _ in range(shape[0] * shape[1])]
    return torch.tensor(values).view(shape)


def pick(items):
    return picker.choice(items)
