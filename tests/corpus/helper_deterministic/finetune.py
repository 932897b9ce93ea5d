# Mimics the PATTERN of a training script that seeds through the project's helper, which leaves deterministic algorithms off, then trains the refiner on CUDA. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch

from refiner import Refiner
from utils import seed_only


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    seed_only(args.seed)
    model = Refiner().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(10):
        loss = model(torch.rand(2, 3, 16, 16).cuda()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
