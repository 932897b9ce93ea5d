# Mimics the PATTERN of semantic-segmentation codebases (the model module imports torch and defines a network whose forward upsamples bilinearly; the training script takes everything from it with `import *`). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepLab(nn.Module):
    def __init__(self, num_classes=21):
        super().__init__()
        self.backbone = nn.Conv2d(3, 16, 3, stride=4, padding=1)
        self.head = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        out = self.head(self.backbone(x))
        return F.interpolate(out, size=x.size()[2:], mode="bilinear", align_corners=True)
