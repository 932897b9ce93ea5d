# Mimics the PATTERN of a rendering script beside the training one (weights loaded, frames rendered under `__main__`, nothing trained). Independent re-creation for seedlint's test corpus, not its code.

import torch

from nerf import Reconstruction


def main():
    scene = Reconstruction(width=64)
    scene.network.load_state_dict(torch.load("scene.pt"))
    frames = scene.render(torch.rand(100, 3))
    torch.save(frames, "frames.pt")


if __name__ == "__main__":
    main()
