# Mimics a typical torchrun DDP training script PATTERN (pytorch/examples distributed tutorials and
# many research repos), made buggy on purpose: the shuffling DistributedSampler is iterated every
# epoch but set_epoch is never called, so every epoch sees the same order. The validation sampler
# (shuffle=False) is fine. Independent re-creation for seedlint's test corpus, not any project's code.
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from seeding import seed_everything, seed_worker


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    for inputs, targets in loader:
        loss = nn.functional.mse_loss(model(inputs.to(device)), targets.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    return sum(nn.functional.mse_loss(model(x.to(device)), y.to(device)).item() for x, y in loader)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    seed_everything(args.seed, rank)

    model = DDP(nn.Linear(32, 1).to(device), device_ids=[local_rank])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    train_set = TensorDataset(torch.randn(1024, 32), torch.randn(1024, 1))
    val_set = TensorDataset(torch.randn(128, 32), torch.randn(128, 1))
    g = torch.Generator()
    g.manual_seed(args.seed)
    train_loader = DataLoader(
        train_set, batch_size=64, sampler=DistributedSampler(train_set, seed=args.seed),
        num_workers=2, worker_init_fn=seed_worker, generator=g,
    )
    val_loader = DataLoader(val_set, batch_size=64, sampler=DistributedSampler(val_set, shuffle=False))

    for epoch in range(args.epochs):
        train_one_epoch(model, train_loader, optimizer, device)
        if rank == 0:
            print(f"epoch {epoch}: val loss {evaluate(model, val_loader, device):.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
