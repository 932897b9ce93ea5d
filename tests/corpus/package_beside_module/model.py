# Mimics the PATTERN of an older model module left beside the package that replaced it: `model.py` and `model/` in one folder, where `import model` finds the package. Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


class LSTMClassifier(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.lstm = nn.LSTM(features, 8, batch_first=True)
