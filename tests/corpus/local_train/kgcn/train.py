# Mimics the PATTERN of the knowledge-graph folder's training script, whose `train(args)` seeds through the helper beside it before it trains. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn
from utils import set_random_seed


def train(args):
    set_random_seed(args.seed)
    model = nn.Embedding(100, 16)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(args.epochs):
        loss = model(torch.randint(0, 100, (32,))).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    train(parser.parse_args())
