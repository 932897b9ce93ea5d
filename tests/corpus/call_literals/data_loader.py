# Mimics the PATTERN of sequence-labelling codebases (a data loader whose `data_iterator(data, shuffle=False)` reseeds Python's `random` with its fixed seed and shuffles only when asked to). Independent re-creation for seedlint's test corpus, not its code.

import random


class DataLoader:
    def __init__(self, seed, batch_size=2):
        self.seed, self.batch_size = seed, batch_size

    def data_iterator(self, data, shuffle=False):
        order = list(range(len(data)))
        if shuffle:
            random.seed(self.seed)
            random.shuffle(order)
        for start in range(0, len(order), self.batch_size):
            yield [data[i] for i in order[start : start + self.batch_size]]
