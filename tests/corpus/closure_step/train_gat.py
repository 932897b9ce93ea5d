# Mimics the PATTERN of graph-attention training scripts whose step lives in a closure that a factory returns, bound to a name and called each epoch; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def get_main_loop(model, optimizer, features, labels):
    loss_fn = nn.CrossEntropyLoss()

    def main_loop(phase):
        if phase == "train":
            model.train()
        loss = loss_fn(model(features), labels)
        if phase == "train":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return loss.item()

    return main_loop


def train_gat(epochs=10):
    model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.6), nn.Linear(16, 3))
    optimizer = torch.optim.Adam(model.parameters())
    main_loop = get_main_loop(
        model, optimizer, torch.zeros(20, 8), torch.zeros(20, dtype=torch.long)
    )
    for _ in range(epochs):
        main_loop("train")


if __name__ == "__main__":
    train_gat()
