# Mimics the PATTERN of the graph folder's training script: its own `train(args)` (named like the other folder's seeding one) builds the DGL model and trains, seeding nothing. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import dgl
import torch
import torch.nn.functional as F
from model import GCN


def train(args):
    graph = dgl.rand_graph(50, 200)
    features, labels = torch.ones(50, 8), torch.zeros(50, dtype=torch.long)
    model = GCN(8, 16, 3)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        loss = F.cross_entropy(model(graph, features), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    train(parser.parse_args())
