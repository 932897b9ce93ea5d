# Mimics the entry point PATTERN of thu-ml/tianshou examples (`if args.watch: watch(args); return` before the seeded training). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn


def watch(args):
    policy = nn.Linear(4, 2)
    return policy(torch.zeros(4))


def warm_up(args):
    return nn.Linear(4, 2)


def train_agent(args):
    torch.manual_seed(args.seed)
    policy = nn.Linear(4, 2)
    return policy(torch.zeros(4))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--watch", action="store_true")
    parser.add_argument("--warm-up", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.watch:
        watch(args)
        return
    if args.warm_up:
        target = warm_up(args)
        print(target(torch.zeros(4)))
    train_agent(args)


if __name__ == "__main__":
    main()
