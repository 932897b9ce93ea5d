# Mimics the PATTERN of GAN trainers whose class carries a `fix_seed` method that seeds every
# library and turns cuDNN benchmark mode on, while no code of the project ever calls it (the
# script seeds nothing); beside it a runner whose `setup` the script does call. Independent
# re-creation for seedlint's test corpus, not its code.
import random

import numpy as np
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, configs):
        self.configs = configs
        self.model = nn.Conv2d(3, 8, 3).cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def fix_seed(self):
        seed = self.configs["seed"]
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
        torch.backends.cudnn.benchmark = True

    def train(self, batches):
        for x in batches:
            loss = self.model(x.cuda()).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


class Runner(Trainer):
    def setup(self):
        torch.manual_seed(self.configs["seed"])
        torch.backends.cudnn.benchmark = True
