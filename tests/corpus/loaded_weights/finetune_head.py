# Mimics the PATTERN of fine-tuning scripts that load a backbone with `strict=False`, so the new
# head keeps the weights it drew. Independent re-creation for seedlint's test corpus, not its code.
import random

import torch
from torch import nn

random.seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
model.load_state_dict(torch.load("backbone.pt", map_location="cpu"), strict=False)
model.eval()
images = torch.load("test_images.pt")
picked = random.sample(range(len(images)), k=8)
with torch.no_grad():
    print(model(images[picked]).argmax(dim=1))
