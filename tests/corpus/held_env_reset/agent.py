# Mimics the PATTERN of RL agents that keep the environment they are given (`self.env = env`) and reset it with `seed=self.seed` at the end of every episode; a look-alike agent deriving each episode's seed. Independent re-creation for seedlint's test corpus, not its code.

import gymnasium as gym
import torch
from torch import nn


class Agent:
    def __init__(self, env, seed):
        self.env, self.seed = env, seed
        torch.manual_seed(seed)
        self.env.action_space.seed(seed)
        self.policy = nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.policy.parameters(), lr=0.01)
        self.state, _ = self.env.reset(seed=self.seed)

    def train(self, episodes):
        for episode in range(episodes):
            done = False
            while not done:
                action = self.env.action_space.sample()
                self.state, reward, terminated, truncated, _ = self.env.step(action)
                loss = -self.policy(torch.as_tensor(self.state)).sum() * reward
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                done = terminated or truncated
            self.state, _ = self.env.reset(seed=self.seed)


class VariedAgent(Agent):
    def train(self, episodes):
        for episode in range(episodes):
            self.state, _ = self.env.reset(seed=self.seed + episode)


if __name__ == "__main__":
    Agent(gym.make("CartPole-v1"), 0).train(10)
    VariedAgent(gym.make("CartPole-v1"), 0).train(10)
