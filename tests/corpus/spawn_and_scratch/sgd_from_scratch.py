# Mimics the PATTERN of from-scratch course notebooks (a hand-written `sgd` updating `param.data` from `param.grad`, weights from `torch.normal`, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch


def sgd(params, lr, batch_size):
    for param in params:
        param.data.sub_(lr * param.grad / batch_size)
        param.grad.data.zero_()


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
features, labels = torch.randn(100, 2), torch.randn(100, 1)
for epoch in range(3):
    loss = ((features @ w + b - labels) ** 2).sum()
    loss.backward()
    sgd([w, b], 0.03, 100)
