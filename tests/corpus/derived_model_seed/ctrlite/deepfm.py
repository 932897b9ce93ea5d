# Mimics the derived model PATTERN of shenweichen/DeepCTR-Torch DeepFM (super().__init__ of BaseModel in another module). Independent re-creation for seedlint's test corpus, not its code.

from torch import nn

from .base import BaseModel


class DeepFM(BaseModel):
    def __init__(self, seed=1024):
        super(DeepFM, self).__init__(seed=seed)
        self.fc = nn.Linear(1, 1)

    def forward(self, x):
        return self.fc(x.view(-1, 1))
