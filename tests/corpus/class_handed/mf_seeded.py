# Mimics the PATTERN of a matrix-factorisation script that hands its model class to the wrapper and trains with Lightning, after seeding everything. Independent re-creation for seedlint's test corpus, not its code.

import lightning as L
import torch
from torch import nn

from lit_model import LitModel


class MatrixFactorization(nn.Module):
    def __init__(self, n_users, n_items, k=8):
        super().__init__()
        self.users = nn.Embedding(n_users, k)
        self.items = nn.Embedding(n_items, k)
        nn.init.normal_(self.users.weight, std=0.01)

    def forward(self, users, items):
        return (self.users(users) * self.items(items)).sum(-1)


def main():
    L.seed_everything(0)
    ratings = torch.utils.data.TensorDataset(
        torch.zeros(32, dtype=torch.long), torch.zeros(32, dtype=torch.long), torch.zeros(32)
    )
    loader = torch.utils.data.DataLoader(ratings, batch_size=8)
    model = LitModel(MatrixFactorization, n_users=10, n_items=10)
    trainer = L.Trainer(max_epochs=2)
    trainer.fit(model, loader)


if __name__ == "__main__":
    main()
