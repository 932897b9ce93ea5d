# Mimics the PATTERN of GAN collections whose folders each hold a `trainer.py`: this one (a folder
# without `__init__.py`) shuffles its class labels with NumPy in `train`. Independent
# re-creation for seedlint's test corpus, not its code.
import numpy as np
import torch


class Trainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader
        self.optim = torch.optim.Adam(model.parameters())

    def train(self):
        labels = np.arange(10)
        np.random.shuffle(labels)
        for batch in self.loader:
            loss = self.model(batch).mean() + float(labels[0])
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
