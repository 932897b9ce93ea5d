# Mimics the PATTERN of a script in a package folder, run as `python SGAN/main.py`: Python puts
# `SGAN/` first in `sys.path`, so `from trainer import Trainer` is `SGAN/trainer.py`, not
# another folder's module of that name. It seeds torch, and its trainer draws only from torch.
# Nothing to report. Independent re-creation for seedlint's test corpus, not its code.
import torch
import torch.nn as nn

from trainer import Trainer

if __name__ == "__main__":
    torch.manual_seed(1)
    Trainer(nn.Linear(4, 1), [torch.ones(2, 4)]).train()
