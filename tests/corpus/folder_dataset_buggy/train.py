# Mimics a custom-dataset training script PATTERN (seeding block at the top, random_split for the
# validation set, a worker_init_fn), made buggy on purpose: the worker_init_fn seeds every worker
# with the same constant and the noisy dataset's RNG object is duplicated across workers.
# Independent re-creation for seedlint's test corpus, not any project's code.
import argparse
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, random_split

from datasets import NoisyWaveforms, SegmentationFolder

parser = argparse.ArgumentParser()
parser.add_argument("root")
parser.add_argument("--seed", type=int, default=1234)
parser.add_argument("--workers", type=int, default=4)
args = parser.parse_args()

random.seed(args.seed)
np.random.seed(args.seed)
torch.manual_seed(args.seed)


def worker_init_fn(worker_id):
    np.random.seed(args.seed)


segmentation = SegmentationFolder(args.root)
train_set, val_set = random_split(segmentation, [0.9, 0.1])
train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=args.workers,
                          worker_init_fn=worker_init_fn)

clips = [np.zeros(16000, dtype=np.float32) for _ in range(100)]
noisy_loader = DataLoader(NoisyWaveforms(clips), batch_size=8, shuffle=True, num_workers=args.workers)

for epoch in range(10):
    for images, masks in train_loader:
        pass
    for waveforms in noisy_loader:
        pass
