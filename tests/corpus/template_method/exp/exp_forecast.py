# Mimics the PATTERN of time-series experiment runners (a subclass overriding the model builder, its own constructor calling the base's). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from torch.utils.data import DataLoader

from exp.exp_basic import Exp_Basic
from models.former import Former


class Exp_Forecast(Exp_Basic):
    def __init__(self, args):
        super(Exp_Forecast, self).__init__(args)

    def _build_model(self):
        return Former(self.args.d_model, self.args.dropout).float()

    def _get_data(self, data_set, flag):
        shuffle_flag = flag == "train"
        return DataLoader(data_set, batch_size=self.args.batch_size, shuffle=shuffle_flag)

    def train(self, setting):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.args.lr)
        criterion = nn.MSELoss()
        for epoch in range(self.args.epochs):
            for x, y in self._get_data(self.args.data, "train"):
                optimizer.zero_grad()
                loss = criterion(self.model(x), y)
                loss.backward()
                optimizer.step()
        return self.model
