# Mimics the PATTERN of fine-tuning runners (the model builder loads a scripted model). Independent re-creation for seedlint's test corpus, not its code.

import torch

from exp.exp_basic import Exp_Basic
from models.former import Former


class Exp_Loaded(Exp_Basic):
    """Builds the model from a file: its constructor draws nothing."""

    def _build_model(self):
        return torch.jit.load(self.args.model_path)

    def train(self, setting):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.args.lr)
        for x, y in self.args.data:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(self.model(x), y).backward()
            optimizer.step()
