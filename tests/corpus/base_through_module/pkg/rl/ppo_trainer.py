# Mimics the PATTERN of RLHF trainer packages (`class PPOTrainer(rl_trainer.RLTrainer)` after `from . import rl_trainer`, its `__init__` calling the base's). Independent re-creation for seedlint's test corpus, not its code.

import torch

from . import rl_trainer


class PPOTrainer(rl_trainer.RLTrainer):
    def __init__(self, args, policy):
        super().__init__(args, policy)
        self.value_head = torch.nn.Linear(4, 1)
        self.optimizer = torch.optim.Adam(policy.parameters())

    def train(self):
        for step in range(10):
            loss = self.policy(torch.randn(3, 4)).sum() + self.value_head(torch.randn(3, 4)).sum()
            loss.backward()
            self.optimizer.step()
