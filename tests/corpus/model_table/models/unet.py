# Mimics the PATTERN of segmentation model zoos (a U-Net upsampling with transposed convolutions). Independent re-creation for seedlint's test corpus, not its code.

import torch.nn as nn


class unet(nn.Module):
    def __init__(self, n_classes=21):
        super().__init__()
        self.down = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(8, n_classes, 2, stride=2)

    def forward(self, x):
        return self.up(self.down(x))
