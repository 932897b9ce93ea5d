# Mimics the PATTERN of the book's chapter scripts: a `torch.Generator()` handed to a shuffling
# DataLoader, then training through the trainer, whose `set_seed` seeds that generator through the
# loader (`loader.sampler.generator`). Nothing to report. Independent re-creation for seedlint's
# test corpus, not its code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from stepbystep import StepByStep

torch.manual_seed(13)
x = torch.randn(64, 3)
y = x.sum(1, keepdim=True)
generator = torch.Generator()
train_loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True, generator=generator)

model = nn.Linear(3, 1)
sbs = StepByStep(model, nn.MSELoss(), torch.optim.SGD(model.parameters(), lr=0.1))
sbs.set_loaders(train_loader)
sbs.train(10)
