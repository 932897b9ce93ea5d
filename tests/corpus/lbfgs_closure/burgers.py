# Mimics the PATTERN of a notebook that fits two network classes in turn, each built with `.to(device)` into the same name and trained with the default LBFGS optimizer; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

import torch

from pinn import PINN, InversePINN

points = torch.ones(32, 2)
model = PINN(points).to("cpu")
model.train(1)

model = InversePINN(points * 2).to("cpu")
model.train(1)
