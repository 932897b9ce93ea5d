# Mimics the PATTERN of policy-gradient RL scripts (seeded once; each iteration ends with an evaluation episode whose helper reseeds torch with 0 in `eval` mode, so the draws after it repeat every iteration). Independent re-creation for seedlint's test corpus, not its code.

import torch
from core.agent import evaluate_episode

torch.manual_seed(1)
policy = torch.nn.Linear(4, 2)
optimizer = torch.optim.Adam(policy.parameters())
for i_iter in range(100):
    loss = policy(torch.randn(4)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(evaluate_episode("eval", policy))
