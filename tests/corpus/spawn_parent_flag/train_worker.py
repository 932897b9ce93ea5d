# Mimics the PATTERN of the same DDP scripts with the flag set where the training runs: in the
# spawned worker. Each child turns benchmark mode on before it trains its convolution (SL301).
# Independent re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch
import torch.multiprocessing as mp
import torch.nn as nn

SEED = 42
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)


def process(rank, world_size):
    torch.backends.cudnn.benchmark = True
    model = nn.Conv1d(80, 80, 3).cuda(rank)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(10):
        x = torch.randn(8, 80, 100, device=rank)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    world_size = torch.cuda.device_count()
    mp.spawn(process, args=(world_size,), nprocs=world_size, join=True)


if __name__ == "__main__":
    main()
