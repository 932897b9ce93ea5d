# Mimics the PATTERN of tabular deep-learning libraries' inference scripts (a loaded model, the folder trainer's predict only). Independent re-creation for seedlint's test corpus, not its code.

import torch

from kit.folder import TrainerFromFolder

model = torch.load("model.pt", weights_only=False)
print(TrainerFromFolder(model).predict(torch.ones(2, 8)))
