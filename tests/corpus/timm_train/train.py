# Mimics the seeding PATTERN of huggingface/pytorch-image-models train.py (cuDNN benchmark switched on
# at start-up, timm.utils.random_seed(seed, rank), set_epoch behind hasattr(loader.sampler, ...)).
# Independent re-creation for seedlint's test corpus, not its code.
import argparse
import os

import torch
import torch.nn as nn
from timm.utils import random_seed
from torch.utils.data import TensorDataset

from loader import create_loader

torch.backends.cudnn.benchmark = True


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    for inputs, target in loader:
        loss = nn.functional.cross_entropy(model(inputs.to(device)), target.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--epochs", type=int, default=300)
    args = parser.parse_args()
    args.distributed = "WORLD_SIZE" in os.environ and int(os.environ["WORLD_SIZE"]) > 1
    args.rank = int(os.environ.get("RANK", 0))
    device = torch.device("cuda")

    random_seed(args.seed, args.rank)
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    model.to(device=device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    dataset_train = TensorDataset(torch.randn(128, 3, 32, 32), torch.randint(0, 10, (128,)))
    loader_train = create_loader(dataset_train, 32, is_training=True, distributed=args.distributed)

    for epoch in range(args.epochs):
        if args.distributed and hasattr(loader_train.sampler, "set_epoch"):
            loader_train.sampler.set_epoch(epoch)
        train_one_epoch(model, loader_train, optimizer, device)


if __name__ == "__main__":
    main()
