# Mimics the PATTERN of character-level language-model lecture notebooks (weights from a private seeded `torch.Generator`, gradients set to `None`, then `p.data += -lr * p.grad` after the backward pass; the minibatches drawn from the unseeded global generator). Independent re-creation for seedlint's test corpus, not its code.

import torch

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 2), generator=g)
W = torch.randn((2, 27), generator=g)
parameters = [C, W]
for p in parameters:
    p.requires_grad = True
xs, ys = torch.randint(0, 27, (500,)), torch.randint(0, 27, (500,))
for step in range(100):
    ix = torch.randint(0, xs.shape[0], (32,))
    loss = torch.nn.functional.cross_entropy(C[xs[ix]] @ W, ys[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
