# Mimics the PATTERN of tabular projects whose entry point builds a trainer class of another module: that module seeds torch at its top level, which runs on import, before any call into it. Independent re-creation for seedlint's test corpus, not its code.

from trainer import Trainer

if __name__ == "__main__":
    Trainer(8).training()
