# Mimics the PATTERN of a seeded script whose helper loads a saved loss history and returns its last entries (a slice, no key) to plot beside each epoch. Independent re-creation for seedlint's test corpus, not its code.

import torch

torch.manual_seed(0)


def load_history(path):
    history = torch.load(path)
    return history[-10:]


def main():
    for epoch in range(0, 10):
        print(epoch, load_history("losses.pt"))


if __name__ == "__main__":
    main()
