# Mimics the PATTERN of RL projects whose update function of another module backpropagates the clipped loss and steps the optimizer it is handed. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class MLPPolicy(nn.Module):
    def __init__(self, observations, actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(observations, 32), nn.Tanh(), nn.Linear(32, actions))

    def forward(self, x):
        return self.body(x)


def ppo_update(policy, opt, states, advantages, epochs):
    for _ in range(epochs):
        loss = -(policy(states).log_softmax(-1)[:, 0] * advantages).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
