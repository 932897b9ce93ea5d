# Mimics the PATTERN of scripts that log a random subset and then train on it, after seeding.
# Independent re-creation for seedlint's test corpus, not its code.
import logging
import random

import torch
from torch.utils.tensorboard import SummaryWriter
from torchvision.utils import make_grid, save_image

logger = logging.getLogger(__name__)
writer = SummaryWriter()
images = torch.load("images.pt")
idx = torch.randperm(len(images))[:16]
save_image(make_grid(images[idx]), "preview.png")
noise = torch.randn(4, 4)
writer.add_image("noise", noise, dataformats="HW")
pick = random.choice(range(len(images)))
logger.info("picked image %d", pick)

torch.manual_seed(0)
random.seed(0)
model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for image in images[idx]:
    loss = model(image).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
