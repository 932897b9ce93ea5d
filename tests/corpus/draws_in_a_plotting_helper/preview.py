# Mimics the PATTERN of data-exploration notebooks whose helper, called with literals before the training part seeds, picks random samples and only plots them: what it draws stays in it. Independent re-creation for seedlint's test corpus, not its code.

import random

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn

IMAGES = np.zeros((100, 8, 8))
LABELS = np.arange(100) % 10


def show_samples(count, title="samples"):
    picks = [random.choice(np.where(LABELS == label)[0]) for label in range(count)]
    by_label = {}
    for label, index in zip(range(count), picks):
        by_label[label] = IMAGES[index]
    fig, axes = plt.subplots(1, count)
    for axis, label in zip(axes, by_label):
        axis.imshow(by_label[label])
        axis.set_title(f"{title}: {label}")
    plt.show()


show_samples(4)

random.seed(0)
torch.manual_seed(0)
model = nn.Linear(64, 10)
order = random.sample(range(100), 100)
