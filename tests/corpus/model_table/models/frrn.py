# Mimics the PATTERN of segmentation model zoos (a residual network whose forward upsamples bilinearly). Independent re-creation for seedlint's test corpus, not its code.

import torch.nn as nn
import torch.nn.functional as F


class frrn(nn.Module):
    def __init__(self, n_classes=21):
        super().__init__()
        self.conv = nn.Conv2d(3, n_classes, 3, stride=2, padding=1)

    def forward(self, x):
        return F.interpolate(self.conv(x), scale_factor=2, mode="bilinear", align_corners=False)
