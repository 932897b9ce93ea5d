# Mimics the PATTERN of the look-alike beside them: it builds the network, loads its fitted weights and only evaluates it; it never trains. Independent re-creation for seedlint's test corpus, not its code.

import torch

from pinn import PINN

model = PINN(torch.ones(32, 2)).to("cpu")
model.load_state_dict(torch.load("pinn.pt"))
model.eval()
with torch.no_grad():
    print(model(torch.zeros(8, 2)).mean())
