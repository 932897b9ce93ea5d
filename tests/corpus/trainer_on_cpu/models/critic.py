# Mimics the PATTERN of a critic that pads by replication, trained on CUDA by a trainer that turns deterministic algorithms on. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.ReplicationPad2d(1), nn.Conv2d(3, 1, 3))

    def forward(self, x):
        return self.body(x)
