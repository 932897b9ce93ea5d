# Mimics the PATTERN of a third assignment's helpers, star-imported by its script; its seeding helper seeds torch too. Independent re-creation for seedlint's test corpus, not its code.

import random

import torch

__all__ = ["seed_everything", "box_area"]


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
