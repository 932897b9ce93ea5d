# Mimics the distillation PATTERN of DeiT-style training scripts (a teacher's frozen weights loaded into `checkpoint`, then a resume into the same name). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn


def main(args):
    torch.manual_seed(args.seed)
    student, teacher = nn.Linear(4, 2), nn.Linear(4, 2)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)

    checkpoint = torch.load(args.teacher_path, map_location="cpu")
    teacher.load_state_dict(checkpoint["model"])
    teacher.requires_grad_(False)

    start_epoch = 0
    if args.resume:
        checkpoint = torch.load(args.resume, map_location="cpu")
        student.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        start_epoch = checkpoint["epoch"] + 1

    for epoch in range(start_epoch, args.epochs):
        x = torch.randn(8, 4)
        loss = (student(x) - teacher(x)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save({"model": student.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, "last.pt")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--teacher_path", default="teacher.pt")
    parser.add_argument("--resume", default="")
    main(parser.parse_args())
