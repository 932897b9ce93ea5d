# Mimics the PATTERN of pix2pixHD-style generators: residual blocks whose padding layer is chosen by a `padding_type` string the generator passes on from its own default ("reflect"), a replication branch no program takes. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class ResnetBlock(nn.Module):
    def __init__(self, dim, padding_type, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.conv_block = self.build_conv_block(dim, padding_type, norm_layer)

    def build_conv_block(self, dim, padding_type, norm_layer):
        layers = []
        if padding_type == "reflect":
            layers += [nn.ReflectionPad2d(1)]
        elif padding_type == "replicate":
            layers += [nn.ReplicationPad2d(1)]
        else:
            raise NotImplementedError(padding_type)
        layers += [nn.Conv2d(dim, dim, kernel_size=3), norm_layer(dim), nn.ReLU(True)]
        return nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv_block(x)


class Generator(nn.Module):
    def __init__(self, channels=3, width=16, blocks=2, padding_type="reflect"):
        super().__init__()
        layers = [nn.Conv2d(channels, width, kernel_size=3, padding=1), nn.ReLU(True)]
        for _ in range(blocks):
            layers += [ResnetBlock(width, padding_type=padding_type)]
        layers += [nn.Conv2d(width, channels, kernel_size=3, padding=1)]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)
