# Mimics the PATTERN of the graph-network project's training script: it takes its options from the
# options module and trains, seeding nothing (SL112). Independent re-creation for seedlint's test
# corpus, not its code.
import torch
import torch.nn as nn

from params import args

model = nn.Linear(16, 4)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
features = torch.ones(32, 16)
labels = torch.zeros(32, dtype=torch.long)
for epoch in range(args.epochs):
    loss = nn.functional.cross_entropy(model(features), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
