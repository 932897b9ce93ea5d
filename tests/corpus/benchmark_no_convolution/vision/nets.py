# Mimics the PATTERN of small CIFAR classifiers (convolutions in a project module). Independent re-creation for seedlint's test corpus, not its code.

from torch import nn


def small_cnn(classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(16, classes),
    )
