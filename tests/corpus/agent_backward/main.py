# Mimics the PATTERN of the entry script (seeded, on CUDA, calling the agent's `learn` in the episode loop; no backward pass of its own). Independent re-creation for seedlint's test corpus, not its code.

import torch

from agent import Agent

torch.manual_seed(0)
agent = Agent("cuda")
for episode in range(10):
    agent.learn(torch.randn(4, 1, 8, device="cuda"))
