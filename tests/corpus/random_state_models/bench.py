# Mimics the PATTERN of a benchmark script beside the examples (the model built without a `random_state`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from models import SequenceModel

network = nn.Linear(8, 8)
model = SequenceModel(network)
model.fit(torch.ones(4, 8))
