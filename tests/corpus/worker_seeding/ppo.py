# Mimics the PATTERN of policy-gradient RL scripts (seeded once; each iteration the agent collects samples, whose helper reseeds only in worker processes). Independent re-creation for seedlint's test corpus, not its code.

import torch
from core.agent import Agent

torch.manual_seed(1)
policy = torch.nn.Linear(4, 2)
optimizer = torch.optim.Adam(policy.parameters())
agent = Agent(policy, num_threads=4)
for i_iter in range(100):
    batch = agent.collect_samples(64)
    loss = torch.stack(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
