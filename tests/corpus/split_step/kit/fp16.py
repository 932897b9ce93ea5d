# Mimics the PATTERN of diffusion codebases' mixed-precision trainers (backward in one method, the optimizer step in another). Independent re-creation for seedlint's test corpus, not its code.

import torch


class MixedPrecisionTrainer:
    def __init__(self, model, scale=2.0**16):
        self.model = model
        self.scale = scale

    def zero_grad(self):
        for param in self.model.parameters():
            param.grad = None

    def backward(self, loss):
        (loss * self.scale).backward()

    def optimize(self, opt):
        for param in self.model.parameters():
            if param.grad is not None:
                param.grad.div_(self.scale)
        opt.step()
