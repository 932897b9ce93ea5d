# Mimics the seeding PATTERN of Lightning's MNIST examples (L.seed_everything(..., workers=True),
# random_split with its own seeded generator inside a LightningDataModule, Trainer(deterministic=True),
# functional dropout that follows self.training). Independent re-creation for seedlint's corpus.
import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split


class LitClassifier(L.LightningModule):
    def __init__(self, hidden=64):
        super().__init__()
        self.l1 = nn.Linear(28 * 28, hidden)
        self.l2 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = F.dropout(torch.relu(self.l1(x.flatten(1))), 0.2, training=self.training)
        return self.l2(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class MNISTDataModule(L.LightningDataModule):
    def __init__(self, batch_size=32):
        super().__init__()
        self.batch_size = batch_size

    def setup(self, stage):
        full = TensorDataset(torch.zeros(600, 1, 28, 28), torch.zeros(600, dtype=torch.long))
        self.train_set, self.val_set = random_split(full, [550, 50], generator=torch.Generator().manual_seed(42))

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True, num_workers=2)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size, num_workers=2)


if __name__ == "__main__":
    L.seed_everything(42, workers=True)
    trainer = L.Trainer(max_epochs=3, deterministic=True, accelerator="auto")
    trainer.fit(LitClassifier(), datamodule=MNISTDataModule())
