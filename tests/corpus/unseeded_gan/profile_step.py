# Mimics the profiling scripts of model repositories: one training step timed in a function named
# as a benchmark; its weights are not a result. Independent re-creation of the pattern.

import time

import torch
from torch import nn


def benchmark_step(steps=10):
    model = nn.Linear(64, 64)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    start = time.perf_counter()
    for _ in range(steps):
        model(torch.randn(32, 64)).sum().backward()
        optimizer.step()
    return (time.perf_counter() - start) / steps


if __name__ == "__main__":
    print(benchmark_step())
