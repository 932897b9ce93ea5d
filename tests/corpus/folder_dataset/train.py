# Mimics a custom-dataset training script PATTERN (the fixed form of folder_dataset_buggy): a
# per-worker seed from torch.initial_seed(), random_split and DataLoader with their own seeded
# generators. Independent re-creation for seedlint's test corpus, not any project's code.
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
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


split_generator = torch.Generator().manual_seed(args.seed)
loader_generator = torch.Generator()
loader_generator.manual_seed(args.seed)

segmentation = SegmentationFolder(args.root)
train_set, val_set = random_split(segmentation, [0.9, 0.1], generator=split_generator)
train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=args.workers,
                          worker_init_fn=worker_init_fn, generator=loader_generator)

clips = [np.zeros(16000, dtype=np.float32) for _ in range(100)]
noisy_loader = DataLoader(NoisyWaveforms(clips, seed=args.seed), batch_size=8, shuffle=True,
                          num_workers=args.workers, worker_init_fn=worker_init_fn)

for epoch in range(10):
    for images, masks in train_loader:
        pass
    for waveforms in noisy_loader:
        pass
