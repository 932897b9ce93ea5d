# Mimics the PATTERN of RL example scripts (the variant's seed drawn at random in a dict, handed to the launcher of another module, which seeds with it; beside it a noise scale drawn as data before that seeding). Independent re-creation for seedlint's test corpus, not its code.

import random

import torch
from torch import nn

from launcher import run_experiment


def experiment(variant):
    policy = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2))
    optimizer = torch.optim.Adam(policy.parameters(), lr=variant["lr"])
    for _ in range(variant["steps"]):
        states = torch.randn(32, 4) * variant["noise"]
        loss = policy(states).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    noise = random.uniform(0.1, 1.0)  # data drawn before the launcher seeds
    variant = dict(lr=3e-4, steps=100, noise=noise, seed=random.randint(0, 100000))
    run_experiment(experiment, variant)
