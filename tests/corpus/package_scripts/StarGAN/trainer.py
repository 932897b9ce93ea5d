# Mimics the PATTERN of the other package folder's own trainer, which shuffles with NumPy.
# Independent re-creation for seedlint's test corpus, not its code.
import numpy as np
import torch


class Trainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader
        self.optim = torch.optim.Adam(model.parameters())

    def train(self):
        order = np.random.permutation(len(self.loader))
        for index in order:
            batch = self.loader[index]
            noise = torch.randn_like(batch)
            loss = self.model(batch + noise).mean()
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
