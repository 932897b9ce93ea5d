# Mimics the training scripts of segmentation and GAN projects (U-Net repositories,
# pytorch-CycleGAN-and-pix2pix): the script seeds and trains on CUDA a model from a package that
# never seeds. Independent re-creation of the pattern.

import argparse

import torch
from torch.utils.data import DataLoader

from data import PairedImages
from models.unet import UNet


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    loader = DataLoader(PairedImages("data/train"), batch_size=8)
    model = UNet().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(args.epochs):
        for image, target in loader:
            loss = torch.nn.functional.l1_loss(model(image.cuda()), target.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
