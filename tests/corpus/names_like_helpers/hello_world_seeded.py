# Mimics the PATTERN of Lightning tutorial scripts (the same two trainers, after `pl.seed_everything(7)`). Independent re-creation for seedlint's test corpus, not its code.

import lightning.pytorch as pl
import torch
from torch import nn

pl.seed_everything(7)


class MNISTModel(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(28 * 28, 10)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.l1(x.view(x.size(0), -1)), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=0.02)


data = torch.utils.data.TensorDataset(torch.zeros(64, 28, 28), torch.zeros(64, dtype=torch.long))
trainer = pl.Trainer(max_epochs=3)
trainer.fit(MNISTModel(), torch.utils.data.DataLoader(data, batch_size=32))

trainer = pl.Trainer(max_epochs=1, accelerator="cpu")
trainer.fit(MNISTModel(), torch.utils.data.DataLoader(data, batch_size=32))
