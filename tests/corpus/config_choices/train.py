# Mimics the training script PATTERN of image-classification scripts whose configuration decides pretrained weights and determinism. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import timm
import torch

from model import Block
from seeding import set_random_seed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deterministic", action="store_true")
    parser.add_argument("--pretrained", action="store_true")
    args = parser.parse_args()
    torch.backends.cudnn.benchmark = True
    backbone = timm.create_model("resnet18", pretrained=args.pretrained)
    set_random_seed(0, deterministic=args.deterministic)
    block = Block(0.1).cuda()
    return backbone(block(torch.ones(1, 3, 32, 32, device="cuda")))


if __name__ == "__main__":
    main()
