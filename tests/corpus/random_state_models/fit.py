# Mimics the PATTERN of such a library's example scripts (the network built, then the model given a seeded `RandomState`). Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch import nn

from models import SequenceModel

network = nn.Linear(8, 8)
model = SequenceModel(network, random_state=np.random.RandomState(100))
model.fit(torch.ones(4, 8))
