# Mimics the PATTERN of policy-gradient RL codebases (a sampler function that reseeds torch only in the worker processes it is started in, `if pid > 0`; the agent calls it in its own process with `pid=0` and starts workers with 1, 2, ..). Independent re-creation for seedlint's test corpus, not its code.

import multiprocessing

import torch


def collect_samples(pid, queue, policy, batch_size):
    if pid > 0:
        torch.manual_seed(1000 * pid)
    batch = [policy(torch.randn(4)) for _ in range(batch_size)]
    if queue is not None:
        queue.put(batch)
    return batch


class Agent:
    def __init__(self, policy, num_threads=1):
        self.policy, self.num_threads = policy, num_threads

    def collect_samples(self, batch_size):
        queue = multiprocessing.Queue()
        workers = [
            multiprocessing.Process(target=collect_samples, args=(i + 1, queue, self.policy, batch_size))
            for i in range(self.num_threads - 1)
        ]
        for worker in workers:
            worker.start()
        return collect_samples(0, None, self.policy, batch_size)


def evaluate_episode(mode, policy):
    if mode == "eval":
        torch.manual_seed(0)  # every evaluation replays the same episode
    return policy(torch.randn(4))
