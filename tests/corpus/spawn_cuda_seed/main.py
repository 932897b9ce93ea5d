# Mimics the seeding PATTERN of pytorch/examples imagenet/main.py variants found in research repos,
# made buggy on purpose: main() seeds with torch.manual_seed and then starts the workers with
# torch.multiprocessing.spawn, and main_worker re-seeds only CUDA (torch.cuda.manual_seed), so every
# spawned worker's CPU generator, which initialises the model built on the CPU, starts at random.
# Trains without a process group, on the CPU. Independent re-creation for seedlint's test corpus,
# not any project's code.
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn


def parse_args():
    parser = argparse.ArgumentParser(description="ImageNet-style training, tiny and CPU-only")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--world-size", type=int, default=2)
    parser.add_argument("--multiprocessing-distributed", action=argparse.BooleanOptionalAction,
                        default=True, help="launch one process per rank with mp.spawn")
    return parser.parse_args()


def main():
    args = parse_args()
    if args.seed is not None:
        torch.manual_seed(args.seed)

    if args.multiprocessing_distributed:
        mp.spawn(main_worker, nprocs=args.world_size, args=(args,))
    else:
        main_worker(0, args)


def main_worker(gpu, args):
    if args.seed is not None:
        torch.cuda.manual_seed(args.seed)

    model = nn.Linear(32, 10)
    print(f"worker {gpu}: initial weight sum {model.weight.sum().item():.6f}")
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        loss = train(model, criterion, args)
        print(f"worker {gpu} epoch {epoch}: loss {loss:.6f}")


def train(model, criterion, args):
    model.train()
    total = 0.0
    for _ in range(args.steps):
        images = torch.randn(args.batch_size, 32)
        target = torch.randint(0, 10, (args.batch_size,))
        loss = criterion(model(images), target)
        model.zero_grad()
        loss.backward()
        with torch.no_grad():  # plain SGD step, as in a hand-written optimizer
            for p in model.parameters():
                p -= args.lr * p.grad
        total += loss.item()
    return total / args.steps


if __name__ == "__main__":
    main()
