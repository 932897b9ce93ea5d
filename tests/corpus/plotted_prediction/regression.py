# Mimics the PATTERN of course scripts that plot an untrained model's predictions, then seed
# torch and train another model. Independent re-creation for seedlint's test corpus, not its code.
import torch
from torch import nn

from helpers import plot_predictions

X = torch.arange(0, 1, 0.02).unsqueeze(dim=1)
y = 0.7 * X + 0.3
X_train, y_train, X_test, y_test = X[:40], y[:40], X[40:], y[40:]

untrained = nn.Linear(1, 1)
with torch.inference_mode():
    y_preds = untrained(X_test)
plot_predictions(X_train, y_train, X_test, y_test, predictions=y_preds)

torch.manual_seed(42)
model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(100):
    loss = nn.functional.l1_loss(model(X_train), y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
