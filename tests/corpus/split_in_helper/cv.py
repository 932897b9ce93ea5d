# Mimics the PATTERN of a cross-validation script that seeds torch before taking its folds from the helper. Independent re-creation for seedlint's test corpus, not its code.

import torch

from data import get_folds

torch.manual_seed(0)
train_set, val_set = get_folds(20)
print(len(train_set), len(val_set))
