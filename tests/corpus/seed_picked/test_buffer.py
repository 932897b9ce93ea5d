# Mimics the PATTERN of RL libraries' replay-buffer tests (a buffer built with a seed drawn right in its arguments, the buffer seeding `random` with it). Independent re-creation for seedlint's test corpus, not its code.

import random


class ReplayBuffer:
    def __init__(self, size, seed):
        self.size = size
        random.seed(seed)

    def sample(self, k):
        return random.sample(range(self.size), k)


def test_samples_fit_the_buffer():
    for size in (10, 100):
        buffer = ReplayBuffer(size, random.randint(0, 2_000_000))  # a random seed, picked here
        assert all(i < size for i in buffer.sample(5))
