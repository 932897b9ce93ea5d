# Mimics the PATTERN of image-to-image GAN training scripts (the model and the loader come from factories of other modules; the script only runs the loop; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from networks import create_loader, create_model

parser = argparse.ArgumentParser()
parser.add_argument("--serial_batches", action="store_true")
parser.add_argument("--continue_train", action="store_true")
parser.add_argument("--checkpoint", default="latest.pt")
parser.add_argument("--is_train", default=True)
opt = parser.parse_args()

model = create_model(opt)
loader = create_loader(opt, torch.zeros(64, 3, 8, 8))
optimizer_g = torch.optim.Adam(model.net_g.parameters(), lr=2e-4)
for epoch in range(5):
    for real in loader:
        loss_g = model.net_g(real).abs().mean()
        optimizer_g.zero_grad()
        loss_g.backward()
        optimizer_g.step()
