# Mimics a single-GPU training script PATTERN that seeds through a helper module before building the
# model and a shuffling loader. With utils.set_seed seeding only CUDA, the CPU-built model's initial
# weights and the shuffle order change on every run. Independent re-creation for seedlint's corpus.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from utils import set_seed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    set_seed(args.seed)

    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2)).cuda()
    data = TensorDataset(torch.arange(2000, dtype=torch.float32).view(100, 20), torch.zeros(100, dtype=torch.long))
    loader = DataLoader(data, batch_size=10, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(5):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
