# Mimics the PATTERN of a launcher that parses its options and spawns one process per GPU,
# each seeding itself in the target of another module. Independent re-creation for seedlint's
# test corpus, not its code.
import argparse

import torch.multiprocessing as mp

from lib.worker import train_worker


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mp.spawn(train_worker, args=(args,), nprocs=2)


if __name__ == "__main__":
    main()
