# Mimics the PATTERN of experiment runners whose model table mixes a loader and a layer. Independent re-creation for seedlint's test corpus, not its code.

import torch

from exp.exp_basic import Exp_Basic


class Exp_Pretrained(Exp_Basic):
    """One entry of the table loads its model: which key is picked decides whether anything is
    drawn, and the key is not known."""

    def _build_model(self):
        model_dict = {"mlp": torch.nn.Linear, "saved": torch.jit.load}
        return model_dict[self.args.model](self.args.path)

    def train(self, setting):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        for x, y in self.args.data:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(self.model(x), y).backward()
            optimizer.step()
