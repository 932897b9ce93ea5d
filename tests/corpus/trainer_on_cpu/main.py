# Mimics the PATTERN of an entry script that seeds and calls `Trainer(args).train()`, the trainer class of another module training on the CPU. Independent re-creation for seedlint's test corpus, not its code.

import torch

from trainer import Trainer

torch.manual_seed(1)
Trainer().train()
