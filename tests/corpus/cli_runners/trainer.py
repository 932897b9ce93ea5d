# Mimics the PATTERN of detection codebases (a trainer module whose `train_step` backpropagates and steps its optimizer). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class DetectorTrainer(nn.Module):
    def __init__(self, detector):
        super().__init__()
        self.detector = detector
        self.optimizer = torch.optim.SGD(detector.parameters(), lr=1e-3)

    def train_step(self, images):
        self.optimizer.zero_grad()
        loss = self.detector(images).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        return loss
