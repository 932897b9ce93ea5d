# Mimics the PATTERN of recommendation tutorials whose Lightning wrapper builds the model class it is handed. Independent re-creation for seedlint's test corpus, not its code.

import lightning as L
import torch


class LitModel(L.LightningModule):
    def __init__(self, model_class, **kwargs):
        super().__init__()
        self.model = model_class(**kwargs)

    def training_step(self, batch, batch_idx):
        users, items, ratings = batch
        return torch.nn.functional.mse_loss(self.model(users, items), ratings)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())
