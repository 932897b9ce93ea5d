# Mimics the PATTERN of domain-adaptation projects whose trainer class runs its update four calls
# below `fit()`: `fit` -> `_run_epoch` -> `_fit_epoch` -> `_update_disc`, which backpropagates and
# steps; a Wasserstein variant overrides the update. Independent re-creation for seedlint's test
# corpus, not its code.
import torch


class Trainer:
    def __init__(self, model, loader, epochs=2):
        self.model = model
        self.loader = loader
        self.epochs = epochs
        self.optim = torch.optim.Adam(model.parameters())

    def _update_disc(self, batch):
        loss = self.model(batch).pow(2).mean()
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()

    def _fit_epoch(self):
        return sum(self._update_disc(batch) for batch in self.loader)

    def _run_epoch(self, val_op=False):
        if val_op:
            return self.evaluate()
        self.model.train()
        return self._fit_epoch()

    def fit(self):
        for _ in range(self.epochs):
            self._run_epoch()
        return self.model

    def evaluate(self):
        with torch.no_grad():
            return sum(self.model(batch).sum().item() for batch in self.loader)


class WassersteinTrainer(Trainer):
    def _update_disc(self, batch):
        loss = self.model(batch).mean()
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()
