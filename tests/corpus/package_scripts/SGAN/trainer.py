# Mimics the PATTERN of the package folder's own trainer, which draws only from torch.
# Independent re-creation for seedlint's test corpus, not its code.
import torch


class Trainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader
        self.optim = torch.optim.Adam(model.parameters())

    def train(self):
        for batch in self.loader:
            noise = torch.randn_like(batch)
            loss = self.model(batch + noise).mean()
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
