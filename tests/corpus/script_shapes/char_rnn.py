# Mimics the PATTERN of character-RNN tutorial scripts (no `__main__` block; the training loop inside a top-level `try` that saves on Ctrl-C; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

model = nn.GRU(8, 16)
head = nn.Linear(16, 8)
optimizer = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=0.01)


def step(inputs, targets):
    output, _ = model(inputs)
    loss = nn.functional.cross_entropy(head(output).view(-1, 8), targets.view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


try:
    print("Training...")
    for epoch in range(1, 11):
        loss = step(torch.randn(5, 1, 8), torch.randint(0, 8, (5, 1)))
except KeyboardInterrupt:
    torch.save(model.state_dict(), "char_rnn.pt")
