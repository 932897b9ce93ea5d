# Mimics the PATTERN of language-model data modules with a self-test under `__main__` (its own seeding option, parsed and unused; the module is imported by the training script). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch


class Corpus:
    def __init__(self, tokens):
        self.data = torch.tensor(tokens)

    def batches(self, size):
        return self.data.split(size)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="unit test")
    parser.add_argument("--seed", type=int, default=1111)
    args = parser.parse_args()
    corpus = Corpus(list(range(20)))
    for batch in corpus.batches(4):
        print(batch)
