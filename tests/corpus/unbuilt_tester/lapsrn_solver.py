# Mimics the PATTERN of a model folder whose trainer the entry point no longer builds (its line is commented out there): a base class that resumes from a checkpoint and a trainer that builds its model before it seeds. Independent re-creation for seedlint's test corpus, not its code.
import os

import torch
from torch import nn


class LapBasic:
    def __init__(self, config):
        self.config = config
        self.start_epoch = 0
        self.model = None

    def load_model(self):
        if os.path.exists(self.config["checkpoint"]):
            checkpoint = torch.load(self.config["checkpoint"])
            self.model.load_state_dict(checkpoint["model"])
            self.start_epoch = checkpoint["epoch"]


class LapTrainer(LapBasic):
    def __init__(self, config, loader):
        super(LapTrainer, self).__init__(config)
        self.loader = loader

    def build_model(self):
        self.model = nn.Conv2d(3, 3, 3, padding=1)
        torch.manual_seed(self.config["seed"])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def run(self, epochs):
        self.build_model()
        self.load_model()
        for epoch in range(self.start_epoch, epochs):
            for lr, hr in self.loader:
                loss = nn.functional.l1_loss(self.model(lr), hr)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            torch.save({"model": self.model.state_dict(), "epoch": epoch}, self.config["checkpoint"])
