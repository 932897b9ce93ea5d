# Mimics the PATTERN of a refinement network that pads by reflection. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad2d(1)
        self.conv = nn.Conv2d(3, 3, 3)

    def forward(self, x):
        return self.conv(self.pad(x))
