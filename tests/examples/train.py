"""A small DDP-style training script with the reproducibility bugs seedlint finds."""

import argparse
import random

import numpy as np
import torch
import torch.backends.cudnn as cudnn
from torch import nn
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 4, 3), nn.Flatten(), nn.Linear(56, 2))

    def forward(self, x):
        return self.net(x.unsqueeze(1))


def set_seed(seed):
    random.seed(seed)
    torch.cuda.manual_seed_all(seed)  # the CPU generator is never seeded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    model = Net()  # built before any seeding
    set_seed(args.seed)
    cudnn.benchmark = True

    data = TensorDataset(torch.randn(64, 16), torch.randint(0, 2, (64,)))
    sampler = DistributedSampler(data, num_replicas=1, rank=0)
    loader = DataLoader(data, batch_size=8, sampler=sampler)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    noise_scale = np.random.uniform(0.0, 0.1)

    for epoch in range(args.epochs):
        for x, y in loader:
            x = x + noise_scale * torch.randn_like(x)
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
