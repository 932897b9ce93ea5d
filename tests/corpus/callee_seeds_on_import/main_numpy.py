# Mimics the PATTERN of the look-alike entry point beside it: its trainer module seeds only NumPy at its top level, and the model it builds draws from torch, which nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

from numpy_trainer import NumpyTrainer

if __name__ == "__main__":
    NumpyTrainer(8).training()
