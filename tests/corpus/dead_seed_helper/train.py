# Mimics the PATTERN of the GAN trainers' scripts: one builds the runner and calls its `setup`
# (which turns benchmark mode on: SL301), then trains. Independent re-creation for seedlint's test
# corpus, not its code.
import torch

from trainer import Runner

runner = Runner({"seed": 0})
runner.setup()
runner.train([torch.randn(4, 3, 16, 16) for _ in range(3)])
