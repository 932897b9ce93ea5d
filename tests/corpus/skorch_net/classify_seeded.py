# Mimics the PATTERN of homework notebooks that train a small classifier with skorch's `NeuralNetClassifier(...).fit(X, y)` after seeding torch. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from skorch import NeuralNetClassifier
from torch import nn


class Classifier(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.hidden = nn.Linear(2, hidden)
        self.dropout = nn.Dropout(0.2)
        self.out = nn.Linear(hidden, 2)

    def forward(self, x):
        return self.out(self.dropout(torch.relu(self.hidden(x))))


torch.manual_seed(0)
X = np.zeros((64, 2), dtype=np.float32)
y = np.zeros(64, dtype=np.int64)
net = NeuralNetClassifier(Classifier, max_epochs=10, lr=0.1, iterator_train__shuffle=True)
net.fit(X, y)
