# Mimics the PATTERN of physics-informed network classes whose `train(num_iter)` hands a loss closure to an LBFGS optimizer's `step`, which calls it: the backward pass runs only inside the closure. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class PINN(nn.Module):
    def __init__(self, points, optimizer_type="lbfgs"):
        super().__init__()
        self.points = points
        self.model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
        self.optimizer_type = optimizer_type
        if optimizer_type == "lbfgs":
            self.optimizer = torch.optim.LBFGS(self.model.parameters())
        else:
            self.optimizer = torch.optim.Adam(self.model.parameters())

    def forward(self, x):
        return self.model(x)

    def train(self, num_iter):
        self.iter = 0
        while self.iter < num_iter:
            if self.optimizer_type == "lbfgs":
                self.optimizer.step(self.loss_closure)
            else:
                self.loss_closure()
                self.optimizer.step()

    def loss_closure(self):
        loss = self.model(self.points).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.iter += 1
        return loss


class InversePINN(PINN):
    def __init__(self, points, optimizer_type="lbfgs"):
        super().__init__(points, optimizer_type)
        self.coefficient = nn.Parameter(torch.zeros(1))
