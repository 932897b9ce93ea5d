# Mimics the PATTERN of diffusion tutorial repositories (a test script that imports the training script's class to look at noised images). Independent re-creation for seedlint's test corpus, not its code.

import torch
from ddpm import Diffusion

diffusion = Diffusion()
print(diffusion.noise_images(torch.ones(2, 4), torch.tensor([50, 500]))[0])
