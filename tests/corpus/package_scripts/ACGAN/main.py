# Mimics the PATTERN of the collection's scripts, run from their folder: `from trainer import
# Trainer` finds this folder's `trainer.py`. It seeds torch only, and its trainer shuffles with
# NumPy (SL105). Independent re-creation for seedlint's test corpus, not its code.
import torch
import torch.nn as nn

from trainer import Trainer

if __name__ == "__main__":
    torch.manual_seed(1)
    Trainer(nn.Linear(4, 1), [torch.ones(2, 4)]).train()
