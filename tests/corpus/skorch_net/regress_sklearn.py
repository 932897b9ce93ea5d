# Mimics the PATTERN of the same homework's baseline: a scikit-learn model's `fit`, which trains no torch network. Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from sklearn.linear_model import LinearRegression

X = np.zeros((64, 2))
y = np.zeros(64)
baseline = LinearRegression().fit(X, y)
print(torch.as_tensor(baseline.predict(X)).mean())
