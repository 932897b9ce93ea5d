# Mimics the PATTERN of tabular deep-learning libraries' example scripts (the folder trainer's fit, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from kit.folder import TrainerFromFolder

model = nn.Linear(8, 1)
batches = [(torch.randn(16, 8), torch.randn(16, 1)) for _ in range(4)]
trainer = TrainerFromFolder(model)
trainer.fit(batches, n_epochs=3)
