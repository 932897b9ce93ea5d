# Mimics the PATTERN of the project's `train.run(..)` wrapper: it builds one of two trainers on
# either side of an `if` and calls `fit()`. Independent re-creation for seedlint's test corpus,
# not its code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from trainers import Trainer, WassersteinTrainer


def run(wasserstein=False, epochs=2):
    model = nn.Linear(4, 1)
    loader = DataLoader(torch.ones(16, 4), batch_size=4, shuffle=True)
    if wasserstein:
        trainer = WassersteinTrainer(model, loader, epochs)
    else:
        trainer = Trainer(model, loader, epochs)
    return trainer.fit()


def score(path):
    model = nn.Linear(4, 1)
    model.load_state_dict(torch.load(path))
    loader = DataLoader(torch.ones(16, 4), batch_size=4)
    trainer = Trainer(model, loader)
    return trainer.evaluate()
