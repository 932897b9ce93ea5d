# Mimics the PATTERN of a ResNet generator that pads by reflection. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(3, 3, 7))

    def forward(self, x):
        return self.body(x)
