# Mimics the training script of the Lightning pattern in model.py: `seed_everything` once, a Trainer with the
# preview callback. Independent re-creation for seedlint's test corpus, not its code.
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import Denoiser, FixedNoisePreview

if __name__ == "__main__":
    L.seed_everything(7, workers=True)
    data = TensorDataset(torch.randn(64, 8))
    trainer = L.Trainer(max_epochs=3, callbacks=[FixedNoisePreview()], logger=False)
    trainer.fit(Denoiser(), DataLoader(data, batch_size=16, shuffle=True), DataLoader(data, batch_size=16))
