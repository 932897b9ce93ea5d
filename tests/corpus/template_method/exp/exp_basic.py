# Mimics the PATTERN of time-series experiment runners' base class (the constructor builds the model through an overridable method). Independent re-creation for seedlint's test corpus, not its code.

import torch


class Exp_Basic:
    def __init__(self, args):
        self.args = args
        self.device = torch.device("cuda" if args.use_gpu else "cpu")
        self.model = self._build_model().to(self.device)

    def _build_model(self):
        raise NotImplementedError

    def train(self, setting):
        pass
