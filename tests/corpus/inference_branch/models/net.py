# Mimics the PATTERN of segmentation and super-resolution models whose `forward` upsamples its output only when built for inference (`Net(upsample_output=True)`), and pads by reflection in a block every program runs. Independent re-creation for seedlint's test corpus, not its code.

import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self, upsample_output=False):
        super().__init__()
        self.upsample_output = upsample_output
        self.pad = nn.ReflectionPad2d(1)
        self.conv = nn.Conv2d(3, 2, 3)

    def forward(self, x):
        x = self.conv(self.pad(x))
        if self.upsample_output:
            x = F.interpolate(x, scale_factor=4, mode="bilinear", align_corners=False)
        return x
