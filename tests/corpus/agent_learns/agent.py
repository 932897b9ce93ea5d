# Mimics the PATTERN of reinforcement-learning tutorials whose agent class, in its own module, builds a policy network and learns from what it stored. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class PolicyAgent:
    def __init__(self, states, actions):
        self.net = nn.Sequential(nn.Linear(states, 16), nn.ReLU(), nn.Linear(16, actions))
        self.opt = torch.optim.Adam(self.net.parameters(), lr=0.01)
        self.memory = []

    def act(self, state):
        probs = torch.softmax(self.net(torch.as_tensor(state, dtype=torch.float32)), -1)
        return torch.multinomial(probs, 1).item()

    def remember(self, state, action, reward):
        self.memory.append((state, action, reward))

    def learn(self):
        states = torch.tensor([s for s, _, _ in self.memory], dtype=torch.float32)
        loss = -self.net(states).log_softmax(-1).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.memory.clear()
