# Mimics the PATTERN of a training script that builds the training set with augmentation and the validation and test sets without, each read by worker processes. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch.utils.data import DataLoader

from dataset import Clips

torch.manual_seed(0)
clips = [np.zeros(16) for _ in range(64)]
train_ds = Clips(clips)
val_ds = Clips(clips, augment=False)
test_ds = Clips(clips, False)
train_loader = DataLoader(train_ds, batch_size=8, shuffle=True, num_workers=4)
val_loader = DataLoader(val_ds, batch_size=8, num_workers=4)
test_loader = DataLoader(test_ds, batch_size=8, num_workers=4)
for batch in train_loader:
    print(batch.mean())
