# Mimics the PATTERN of from-scratch course notebooks (an `sgd` written as `param -= lr * param.grad` under `no_grad`, then the gradient cleared, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch


def sgd(params, lr):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad
            param.grad.zero_()


w = torch.randn(2, 1, requires_grad=True)
features, labels = torch.randn(100, 2), torch.randn(100, 1)
for epoch in range(3):
    loss = ((features @ w - labels) ** 2).mean()
    loss.backward()
    sgd([w], 0.1)
