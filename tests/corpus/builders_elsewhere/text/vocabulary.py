# Mimics the PATTERN of text-classification repositories (a helper module that reads the command line and builds its tables with its own functions at import; it trains nothing). Independent re-creation for seedlint's test corpus, not its code.

import sys


def build_table(words):
    return {word: number for number, word in enumerate(sorted(words))}


def train_words():
    return ["a", "b"]


TABLE = build_table(sys.argv[2:] or train_words())
