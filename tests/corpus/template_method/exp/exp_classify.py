# Mimics the PATTERN of time-series experiment runners (a subclass without a constructor, its model picked by name from a table). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from exp.exp_basic import Exp_Basic


class Exp_Classify(Exp_Basic):
    """No constructor of its own: Exp_Basic's runs, and builds the model through this class's
    _build_model, picked by name from a table."""

    def _build_model(self):
        model_dict = {"mlp": nn.Linear, "deep": nn.Bilinear}
        return model_dict[self.args.model](self.args.d_in, self.args.classes)

    def train(self, setting):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        for x, y in self.args.data:
            optimizer.zero_grad()
            nn.functional.cross_entropy(self.model(x), y).backward()
            optimizer.step()
