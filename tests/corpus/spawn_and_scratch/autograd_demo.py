# Mimics the PATTERN of autograd basics notebooks (gradients computed, printed and cleared in a loop; no parameter is ever updated, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch

x = torch.randn(3, requires_grad=True)
for step in range(3):
    y = (x * x).sum()
    y.backward()
    print(step, x.grad)
    x.grad.zero_()
