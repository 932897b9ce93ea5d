# Mimics the collector PATTERN of RL and data-generation scripts that seed every library and fork worker processes. Independent re-creation for seedlint's test corpus, not its code.

import multiprocessing as mp
import random

import numpy as np
import torch


def rollout(rank, queue):
    noise = torch.randn(4)
    order = np.random.permutation(8)
    jitter = random.random()
    queue.put((rank, noise.sum().item(), order.tolist(), jitter))


def seeded_rollout(rank, queue):
    random.seed(1000 + rank)
    queue.put((rank, random.random()))


def main():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    queue = mp.Queue()
    workers = [mp.Process(target=rollout, args=(rank, queue)) for rank in range(2)]
    workers += [mp.Process(target=seeded_rollout, args=(rank, queue)) for rank in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


if __name__ == "__main__":
    main()
