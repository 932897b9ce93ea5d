# Mimics the PATTERN of self-supervised DDP scripts (`torch.multiprocessing.spawn(main_worker, ..)`, the worker training with a scaler, nothing seeded anywhere). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.multiprocessing as mp
from torch import nn


def main_worker(gpu, args):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.cuda.amp.GradScaler()
    for step in range(10):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


def main():
    mp.spawn(main_worker, args=(None,), nprocs=2)


if __name__ == "__main__":
    main()
