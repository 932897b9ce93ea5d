# Mimics the resume PATTERN of DETR / DeiT / ConvNeXt main.py (a `--frozen_weights` load, a `--finetune` load and a resume from a URL or a file, all into `checkpoint`). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn


def main(args):
    torch.manual_seed(args.seed)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    if args.frozen_weights is not None:
        checkpoint = torch.load(args.frozen_weights, map_location="cpu")
        model.load_state_dict(checkpoint["model"])

    if args.finetune:
        checkpoint = torch.load(args.finetune, map_location="cpu")
        model.load_state_dict(checkpoint["model"], strict=False)

    start_epoch = 0
    if args.resume:
        if args.resume.startswith("https"):
            checkpoint = torch.hub.load_state_dict_from_url(args.resume, map_location="cpu")
        else:
            checkpoint = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        start_epoch = checkpoint["epoch"] + 1

    for epoch in range(start_epoch, args.epochs):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, "last.pt")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--frozen_weights", default=None)
    parser.add_argument("--finetune", default="")
    parser.add_argument("--resume", default="")
    main(parser.parse_args())
