# Mimics the example PATTERN of DeepCTR-Torch examples: a model seeded by its constructor, then an unseeded train_test_split. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
from sklearn.model_selection import train_test_split

from ctrlite.deepfm import DeepFM

data = np.arange(100.0)
model = DeepFM(seed=1024)
train, test = train_test_split(data, test_size=0.2)
model.fit(train)
