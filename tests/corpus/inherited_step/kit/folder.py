# Mimics the PATTERN of tabular deep-learning libraries' load-from-folder trainers (a subclass in another module whose fit runs the inherited epoch). Independent re-creation for seedlint's test corpus, not its code.

import torch

from kit.training import Trainer


class TrainerFromFolder(Trainer):
    def fit(self, batches, n_epochs=1):
        for epoch in range(n_epochs):
            self._train_epoch(batches)

    def predict(self, x):
        with torch.no_grad():
            return self.model(x)
