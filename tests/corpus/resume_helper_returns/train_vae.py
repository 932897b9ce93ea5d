# Mimics the PATTERN of VAE experiment scripts whose `load_model` helper restores the weights and returns the saved epoch, which the seeded training loop starts from. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 4), nn.Dropout(0.1), nn.Linear(4, 8))
optimizer = torch.optim.Adam(model.parameters())


def load_model(path):
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint["epoch"]


def main(opt):
    start_epoch = 0
    if opt.load_path:
        start_epoch = load_model(opt.load_path)
    for epoch in range(start_epoch, opt.epochs):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch + 1},
            "last.pt",
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--load_path", default="")
    parser.add_argument("--epochs", type=int, default=10)
    main(parser.parse_args())
