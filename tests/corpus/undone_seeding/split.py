# Mimics the split PATTERN of scripts that make a fixed validation split by saving, seeding and restoring NumPy's state. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch


def main():
    torch.manual_seed(0)
    state = np.random.get_state()
    np.random.seed(1234)
    validation = np.random.permutation(1000)[:100]
    np.random.set_state(state)
    noise = np.random.normal(size=(1000, 8))
    return validation, noise.mean(axis=0)


if __name__ == "__main__":
    print(main())
