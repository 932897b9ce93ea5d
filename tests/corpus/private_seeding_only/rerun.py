# Mimics the look-alike: a script of that folder running the seeding `train` itself. Independent re-creation for seedlint's test corpus, not its code.

from pretrain import train

if __name__ == "__main__":
    for seed in range(3):
        train(seed)
