# Mimics the PATTERN of segmentation training scripts (the model built by the zoo's `get_model` from the configuration's `arch`; seeded, on CUDA, deterministic algorithms left off). Independent re-creation for seedlint's test corpus, not its code.

import torch
from models import get_model

torch.manual_seed(1337)
device = torch.device("cuda")
model = get_model({"arch": "frrnA"}, n_classes=19).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
for step in range(10):
    loss = model(torch.rand(2, 3, 32, 32, device=device)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
