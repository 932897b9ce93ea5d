# Mimics the PATTERN of distillation scripts: a model's predictions, smoothed by a helper that
# returns them, are the targets the seeded model trains on. Independent re-creation for
# seedlint's test corpus, not its code.
import torch
from torch import nn

from helpers import smoothed

X = torch.arange(0, 1, 0.02).unsqueeze(dim=1)

teacher = nn.Linear(1, 1)
with torch.inference_mode():
    targets = smoothed(teacher(X))

torch.manual_seed(42)
model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(100):
    loss = nn.functional.l1_loss(model(X), torch.stack(targets))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
