# Mimics the PATTERN of graph-classification benchmark code (cross-validation that builds each fold's model from a model function it is given and a PyTorch Geometric loader that shuffles). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch_geometric.loader import DataLoader


def cross_validation(dataset, model_func, folds, epochs):
    for fold in range(folds):
        loader = DataLoader(dataset, 32, shuffle=True)
        model = model_func(dataset)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        for epoch in range(epochs):
            for data in loader:
                loss = model(data).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


def evaluate_fixed(dataset, model):
    loader = DataLoader(dataset, 32, shuffle=False)
    return [model(data) for data in loader]
