# Mimics the PATTERN of the project's training and display loops, each handed the agent: the training loop samples a replay buffer and calls the agent's `train_step` through a helper; the display loop only acts. Independent re-creation for seedlint's test corpus, not its code.

import random

import torch


def _episode(agent, memory, batch_size):
    batch = random.sample(memory, batch_size)
    states = torch.stack([state for state, _ in batch])
    targets = torch.tensor([reward for _, reward in batch])
    return agent.train_step(states, targets)


def run_training(agent, episodes, batch_size=8):
    memory = [(torch.rand(16), float(step % 3)) for step in range(64)]
    for episode in range(episodes):
        _episode(agent, memory, batch_size)


def run_display(agent, episodes):
    for episode in range(episodes):
        print(episode, agent.act(torch.rand(4, 16)))
