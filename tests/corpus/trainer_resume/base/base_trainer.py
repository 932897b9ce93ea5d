# Mimics the PATTERN of project templates whose base trainer restores the epoch from a checkpoint into `self.start_epoch` and loops from it in `train()`, saving no generator state. Independent re-creation for seedlint's test corpus, not its code.

import torch


class BaseTrainer:
    def __init__(self, model, optimizer, epochs, resume=None):
        self.model = model
        self.optimizer = optimizer
        self.epochs = epochs
        self.start_epoch = 1
        if resume is not None:
            self._resume_checkpoint(resume)

    def _train_epoch(self, epoch):
        raise NotImplementedError

    def train(self):
        for epoch in range(self.start_epoch, self.epochs + 1):
            self._train_epoch(epoch)
            torch.save({"epoch": epoch, "state_dict": self.model.state_dict()}, "last.pth")

    def _resume_checkpoint(self, resume_path):
        checkpoint = torch.load(resume_path)
        self.start_epoch = checkpoint["epoch"] + 1
        self.model.load_state_dict(checkpoint["state_dict"])
