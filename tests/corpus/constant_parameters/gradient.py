# Mimics the PATTERN of gradient lessons that build two linear layers and set every weight and
# bias to hand-picked constants before one training step. Independent re-creation for seedlint's
# test corpus, not its code.
import torch
from torch import nn


class SimpleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(2, 2)
        self.linear2 = nn.Linear(2, 2)
        self.linear1.weight = nn.Parameter(torch.tensor([[0.2, 0.4], [-0.3, -0.5]]))
        self.linear1.bias = nn.Parameter(torch.tensor([0.1, -0.2]))
        self.linear2.weight = nn.Parameter(torch.tensor([[0.1, -0.6], [0.3, -0.2]]))
        self.linear2.bias = nn.Parameter(torch.tensor([0.05, -0.1], requires_grad=True))

    def forward(self, x):
        return torch.sigmoid(self.linear2(torch.sigmoid(self.linear1(x))))


model = SimpleModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = nn.functional.mse_loss(model(torch.tensor([[0.5, 0.1]])), torch.tensor([[0.7, 0.3]]))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print([p.grad for p in model.parameters()])
