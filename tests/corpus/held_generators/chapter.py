# Mimics the PATTERN of the same chapter script with a plain training loop: the generator handed
# to the shuffling DataLoader is never seeded, here or through the loader, so it starts from the
# same constant whatever the script's seed (SL107). Independent re-creation for seedlint's test
# corpus, not its code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(13)
x = torch.randn(64, 3)
y = x.sum(1, keepdim=True)
generator = torch.Generator()
train_loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True, generator=generator)

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    for xb, yb in train_loader:
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
