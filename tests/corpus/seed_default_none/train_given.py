# Mimics the look-alike: the same helper seeding only when given a seed, called with the script's option. Independent re-creation for seedlint's test corpus, not its code.

import argparse
import random

import numpy as np


def seed_everything(seed=None):
    if seed is not None:
        random.seed(seed)
        np.random.seed(seed)


parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
seed_everything(args.seed)
print(np.random.permutation(100)[:5], random.random())
