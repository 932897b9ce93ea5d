# Mimics the PATTERN of the training script of such a project (the scene fitted, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch

from nerf import Reconstruction

scene = Reconstruction(width=64)
rays, colors = torch.load("rays.pt")
scene.fit(rays, colors, steps=1000)
torch.save(scene.network.state_dict(), "scene.pt")
