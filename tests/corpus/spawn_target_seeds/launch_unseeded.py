# Mimics the PATTERN of a launcher whose spawned target of another module seeds nothing.
# Independent re-creation for seedlint's test corpus, not its code.
import argparse

import torch.multiprocessing as mp

from lib.worker import train_worker_unseeded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mp.spawn(train_worker_unseeded, args=(args,), nprocs=2)


if __name__ == "__main__":
    main()
