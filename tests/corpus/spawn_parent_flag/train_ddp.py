# Mimics the PATTERN of lip-reading and TTS DDP scripts that seed at their top level, set the
# cuDNN flags in `main()` and then train in `mp.spawn(process, ..)` children. A spawned child is a
# fresh interpreter: it re-runs this top level (seeded) but never `main()`, so it trains with
# cuDNN's default `benchmark=False`. Nothing to report. Independent re-creation for seedlint's test
# corpus, not its code.
import os
import random

import numpy as np
import torch
import torch.multiprocessing as mp
import torch.nn as nn

SEED = 42
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
torch.cuda.manual_seed_all(SEED)


def process(rank, world_size):
    os.environ["MASTER_ADDR"] = "localhost"
    model = nn.Conv1d(80, 80, 3).cuda(rank)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(10):
        x = torch.randn(8, 80, 100, device=rank)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    torch.backends.cudnn.benchmark = True
    world_size = torch.cuda.device_count()
    mp.spawn(process, args=(world_size,), nprocs=world_size, join=True)


if __name__ == "__main__":
    main()
