# Mimics the PATTERN of Lightning projects that fix the validation noise by reseeding in a hook:
# `on_validation_epoch_start` calls `torch.manual_seed(0)`, which also resets the generator training
# resumes with after validation (Lightning does not restore it), so every epoch replays the same
# dropout masks and shuffle order. Look-alike: a callback that does the same inside Lightning's
# `isolate_rng()`, which restores every generator on exit. Independent re-creation for seedlint's test
# corpus, not its code.
import lightning as L
import torch
from lightning.pytorch.utilities.seed import isolate_rng
from torch import nn


class Denoiser(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.1), nn.Linear(16, 8))

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return (self.net(x + 0.1 * torch.randn_like(x)) - x).pow(2).mean()

    def on_validation_epoch_start(self):
        torch.manual_seed(0)

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        self.log("val_loss", (self.net(x + 0.1 * torch.randn_like(x)) - x).pow(2).mean())

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class FixedNoisePreview(L.Callback):
    def on_validation_epoch_end(self, trainer, pl_module):
        with isolate_rng():
            torch.manual_seed(0)
            preview = pl_module.net(torch.randn(4, 8))
        pl_module.print(preview.mean().item())
