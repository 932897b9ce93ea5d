# Mimics the PATTERN of super-resolution model folders whose solver module holds a trainer that
# the entry point builds and a tester class that no code builds, both turning cuDNN's benchmark
# mode on. Independent re-creation for seedlint's test corpus, not its code.
import torch
import torch.backends.cudnn as cudnn
from torch import nn


class Basic:
    def __init__(self, config):
        self.config = config
        self.model = None


class Tester(Basic):
    def __init__(self, config):
        super(Tester, self).__init__(config)

    def build_model(self):
        self.model = nn.Conv2d(3, 3, 3, padding=1).cuda()
        cudnn.benchmark = True


class Trainer(Basic):
    def __init__(self, config, loader):
        super(Trainer, self).__init__(config)
        self.loader = loader

    def build_model(self):
        torch.manual_seed(self.config["seed"])
        self.model = nn.Conv2d(3, 3, 3, padding=1).cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)
        cudnn.benchmark = True

    def run(self, epochs):
        self.build_model()
        for _ in range(epochs):
            for lr, hr in self.loader:
                loss = nn.functional.l1_loss(self.model(lr.cuda()), hr.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
