# Mimics the PATTERN of the same training script seeding from the options module's `args.seed`.
# Nothing to report. Independent re-creation for seedlint's test corpus, not its code.
import torch
import torch.nn as nn

from params import args

torch.manual_seed(args.seed)
model = nn.Linear(16, 4)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
features = torch.ones(32, 16)
labels = torch.zeros(32, dtype=torch.long)
for epoch in range(args.epochs):
    loss = nn.functional.cross_entropy(model(features), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
