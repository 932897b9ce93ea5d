# Mimics the PATTERN of an RL entry script whose text spells no training word: it builds the policy, hands it and an Adam optimizer to `ppo_update` of another module each iteration, and seeds nothing. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.optim import Adam

from agents.ppo import MLPPolicy, ppo_update

if __name__ == "__main__":
    policy = MLPPolicy(4, 2)
    opt = Adam(policy.parameters(), lr=3e-4)
    for iteration in range(100):
        states = torch.zeros(16, 4)
        ppo_update(policy, opt, states, torch.ones(16), epochs=4)
