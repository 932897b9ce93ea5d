# Mimics the PATTERN of a trainer class that turns deterministic algorithms on when built, then trains on CUDA. Independent re-creation for seedlint's test corpus, not its code.

import torch

from models.critic import Critic


class CriticTrainer:
    def __init__(self):
        torch.use_deterministic_algorithms(True)
        self.net = Critic().cuda()
        self.optimizer = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def fit(self):
        loss = self.net(torch.zeros(1, 3, 8, 8).cuda()).mean()
        loss.backward()
        self.optimizer.step()
