# Mimics the PATTERN of such a library's example scripts (the evaluator's `evaluate`, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from labkit.evaluation import NodeUnsupervised

encoder = nn.Linear(4, 8)
evaluator = NodeUnsupervised()
scores = evaluator.evaluate(encoder, torch.randn(16, 4), torch.randint(0, 2, (16,)))
print(scores)
