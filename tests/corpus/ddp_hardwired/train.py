# Mimics a DDP training script PATTERN (pytorch/examples imagenet-style `if args.distributed:`
# sampler handling) whose distributed switch was hard-wired on while debugging, made buggy on
# purpose: the DistributedSampler is now always created (`if True:`), but `set_epoch` still runs
# only under `if args.distributed:`, which is False by default, so every epoch repeats one order.
# num_replicas/rank are passed so it runs without a process group. Independent re-creation for
# seedlint's test corpus, not any project's code.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_dataset(num_samples, num_features):
    inputs = torch.randn(num_samples, num_features)
    targets = (inputs.sum(dim=1) > 0).long()
    sample_ids = torch.arange(num_samples)
    return TensorDataset(sample_ids, inputs, targets)


def train_one_epoch(model, loader, criterion, optimizer):
    model.train()
    total, first_ids = 0.0, None
    for sample_ids, inputs, targets in loader:
        if first_ids is None:
            first_ids = sample_ids.tolist()
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader), first_ids


def main():
    parser = argparse.ArgumentParser(description="DDP-style training, single process")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--num-samples", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--distributed", action="store_true", help="use DistributedDataParallel")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    dataset = build_dataset(args.num_samples, 16)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

    if True:  # args.distributed
        train_sampler = DistributedSampler(dataset, num_replicas=1, rank=0)
    else:
        train_sampler = None
    train_loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=(train_sampler is None),
                              sampler=train_sampler)

    for epoch in range(args.epochs):
        if args.distributed:
            train_sampler.set_epoch(epoch)
        loss, first_ids = train_one_epoch(model, train_loader, criterion, optimizer)
        print(f"epoch {epoch}: loss {loss:.4f}, first batch sample ids {first_ids}")


if __name__ == "__main__":
    main()
