# Mimics the seeding PATTERN of open-mmlab/mmdetection tools/train.py (a seed from the command line
# or drawn at random and logged, optionally offset by rank with --diff-seed, then set_random_seed
# with a --deterministic switch). Independent re-creation for seedlint's test corpus, not its code.
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import TensorDataset

from mmdet_lite.builder import build_dataloader
from mmdet_lite.seeding import init_random_seed, set_random_seed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--diff-seed", action="store_true")
    parser.add_argument("--deterministic", action="store_true")
    parser.add_argument("--epochs", type=int, default=12)
    args = parser.parse_args()

    dist.init_process_group("nccl")
    rank, world_size = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    seed = init_random_seed(args.seed)
    rank_seed = seed + rank if args.diff_seed else seed
    print(f"Set random seed to {rank_seed}, deterministic: {args.deterministic}")
    set_random_seed(rank_seed, deterministic=args.deterministic)

    model = nn.Linear(16, 4).cuda()
    model = nn.parallel.DistributedDataParallel(model, device_ids=[torch.cuda.current_device()])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02)
    dataset = TensorDataset(torch.randn(256, 16), torch.randint(0, 4, (256,)))
    loader = build_dataloader(dataset, 2, 2, rank, world_size, seed=seed)
    for epoch in range(args.epochs):
        loader.sampler.set_epoch(epoch)
        for inputs, labels in loader:
            loss = nn.functional.cross_entropy(model(inputs.cuda()), labels.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
