# Mimics the PATTERN of evaluation scripts that seed `random` for the images they pick, build the
# model, and load the trained weights with a strict `load_state_dict` before predicting.
# Independent re-creation for seedlint's test corpus, not its code.
import random

import torch
from torch import nn

random.seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
model.load_state_dict(torch.load("best.pt", map_location="cpu"))
model.eval()
images = torch.load("test_images.pt")
picked = random.sample(range(len(images)), k=8)
with torch.no_grad():
    print(model(images[picked]).argmax(dim=1))
