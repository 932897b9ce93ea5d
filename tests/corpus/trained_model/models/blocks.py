# Mimics U-Net building blocks: reflection padding before each convolution. Independent
# re-creation of the pattern.

from torch import nn


class DoubleConv(nn.Sequential):
    def __init__(self, inputs, outputs):
        super().__init__(
            nn.ReflectionPad2d(1),
            nn.Conv2d(inputs, outputs, 3),
            nn.ReLU(inplace=True),
        )
