# Mimics the PATTERN of the project's inference script (the model built with `upsample_output=True`, run under `no_grad`). Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.net import Net

model = Net(upsample_output=True).cuda().eval()
model.load_state_dict(torch.load("net.pt"))
with torch.no_grad():
    print(model(torch.randn(1, 3, 16, 16).cuda()).shape)
