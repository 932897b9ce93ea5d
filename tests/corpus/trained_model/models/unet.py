# Mimics a U-Net model module: bilinear upsampling in `forward`, and an export variant the
# training script never builds. Independent re-creation of the pattern.

import torch
import torch.nn.functional as F
from torch import nn

from models.blocks import DoubleConv


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = DoubleConv(3, 16)
        self.up = DoubleConv(16, 3)

    def forward(self, x):
        features = self.down(x)
        pooled = F.max_pool2d(features, 2)
        upsampled = F.interpolate(pooled, scale_factor=2, mode="bilinear", align_corners=False)
        return self.up(torch.relu(upsampled))


class UNetForExport(nn.Module):
    """A variant the training script never builds: left alone."""

    def forward(self, x):
        return F.interpolate(x, scale_factor=2, mode="bicubic")
