# Mimics the look-alike: the same loader, with `loader.sampler.set_epoch(epoch)` at the start of every epoch. Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.distributed as dist
from torch import nn

from data import build_loader


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = build_loader(8)
    for epoch in range(3):
        loader.sampler.set_epoch(epoch)
        for (x,) in loader:
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
