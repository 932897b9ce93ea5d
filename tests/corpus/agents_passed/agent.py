# Mimics the PATTERN of a molecule-optimisation DQN project's agent module: the agent owns its Q-network and optimizer and trains in `train_step`. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class DoubleDQNAgent:
    def __init__(self, input_dim, lr=1e-3):
        self.q_net = nn.Sequential(nn.Linear(input_dim, 64), nn.ReLU(), nn.Linear(64, 1))
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=lr)

    def act(self, observations):
        with torch.no_grad():
            return int(self.q_net(observations).argmax())

    def train_step(self, states, targets):
        loss = nn.functional.mse_loss(self.q_net(states).squeeze(-1), targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
