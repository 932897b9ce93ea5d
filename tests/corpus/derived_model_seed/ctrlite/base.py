# Mimics the base model PATTERN of shenweichen/DeepCTR-Torch BaseModel (torch.manual_seed(seed) in its constructor). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class BaseModel(nn.Module):
    def __init__(self, seed=1024):
        super().__init__()
        torch.manual_seed(seed)

    def fit(self, x):
        return self(torch.as_tensor(x, dtype=torch.float32))
