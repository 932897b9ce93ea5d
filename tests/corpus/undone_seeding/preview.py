# Mimics the preview PATTERN of VAE/diffusion scripts that draw a preview under `torch.random.fork_rng()` and seed nothing else. Independent re-creation for seedlint's test corpus, not its code.

import random

import torch


def preview(decoder):
    with torch.random.fork_rng():
        torch.manual_seed(0)
        latents = torch.randn(16, 8)
    return decoder(latents)


def jitter(batch):
    return batch * (1 + 0.1 * random.random())


if __name__ == "__main__":
    images = preview(torch.nn.Identity())
    print(jitter(images).mean())
