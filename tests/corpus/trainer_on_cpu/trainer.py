# Mimics the PATTERN of a trainer class that keeps its generator on the CPU. Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.generator import Generator


class Trainer:
    def __init__(self):
        self.net = Generator().to("cpu")
        self.optimizer = torch.optim.Adam(self.net.parameters())

    def train(self):
        for _ in range(10):
            loss = self.net(torch.zeros(1, 3, 16, 16)).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
