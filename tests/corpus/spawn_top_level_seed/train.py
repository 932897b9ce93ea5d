# Mimics the PATTERN of pytorch/examples distributed/ddp scripts and many research repos that parse
# arguments and seed at module level, then start one worker per rank with
# torch.multiprocessing.spawn (here each rank trains its own replica, without a process group, so
# it runs anywhere). A spawn child re-imports the main module as __mp_main__ and re-runs that top
# level, so every worker is seeded too. Independent re-creation for seedlint's test corpus, not any
# project's code.
import argparse
import random

import torch
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser(description="Toy multi-process training with module-level seeding")
parser.add_argument("--seed", type=int, default=42)
parser.add_argument("--world-size", type=int, default=2)
parser.add_argument("--steps", type=int, default=5)
parser.add_argument("--batch-size", type=int, default=8)
parser.add_argument("--lr", type=float, default=0.05)
args = parser.parse_args()

random.seed(args.seed)
torch.manual_seed(args.seed)


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net1 = nn.Linear(10, 16)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))


def run_worker(rank, args):
    model = ToyModel()
    init_sum = sum(p.sum().item() for p in model.parameters())
    loss_fn = nn.MSELoss()

    for step in range(args.steps):
        inputs = torch.randn(args.batch_size, 10)
        targets = torch.randn(args.batch_size, 4)
        if random.random() < 0.5:
            inputs = inputs.flip(0)
        model.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        with torch.no_grad():  # plain SGD step
            for p in model.parameters():
                p -= args.lr * p.grad
        if rank == 0:
            print(f"step {step}: loss {loss.item():.6f}")

    if rank == 0:
        final_sum = sum(p.sum().item() for p in model.parameters())
        print(f"rank 0: initial weight sum {init_sum:.6f}, final weight sum {final_sum:.6f}")


def main():
    mp.spawn(run_worker, args=(args,), nprocs=args.world_size, join=True)


if __name__ == "__main__":
    main()
