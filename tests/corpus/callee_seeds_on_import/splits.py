# Mimics the PATTERN of a data module whose split seeds Python's `random` for its shuffle. Independent re-creation for seedlint's test corpus, not its code.

import random


class Splits:
    def __init__(self, n, seed=42):
        random.seed(seed)
        self.rows = random.sample(range(n), n)
