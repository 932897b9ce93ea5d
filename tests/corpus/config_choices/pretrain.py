# Mimics the pretraining entry point PATTERN of jzhang38/TinyLlama pretrain (Lightning Fabric passed into main, fabric.seed_everything before the model). Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch
from torch import nn


def main(fabric, seed=3407):
    fabric.seed_everything(seed)
    np.random.seed(seed + fabric.global_rank)  # per-rank data order
    model = nn.Linear(16, 16)
    order = np.random.permutation(100)
    return model, order


if __name__ == "__main__":
    import lightning as L

    main(L.Fabric(devices=1))
