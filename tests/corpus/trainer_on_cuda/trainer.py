# Mimics the PATTERN of a trainer class that puts its generator on CUDA in its constructor when asked (`--cuda`) and backpropagates in `train`. Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.generator import Generator


class Trainer:
    def __init__(self, args):
        self.args = args
        self.net = Generator()
        if args.cuda:
            self.net.cuda()
        self.optimizer = torch.optim.Adam(self.net.parameters())

    def train(self):
        for _ in range(10):
            loss = self.net(torch.zeros(1, 3, 16, 16).cuda()).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
