# Mimics the PATTERN of RL projects whose agent class learns in its own method (`loss.backward()` and the optimizer's step in `Agent.learn`), with a critic that pads by reflection. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad1d(1)
        self.conv = nn.Conv1d(1, 1, 3)

    def forward(self, x):
        return self.conv(self.pad(x)).mean()


class Agent:
    def __init__(self, device):
        self.critic = Critic().to(device)
        self.optimizer = torch.optim.Adam(self.critic.parameters())

    def learn(self, batch):
        loss = self.critic(batch).pow(2)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
