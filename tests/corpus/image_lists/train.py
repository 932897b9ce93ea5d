# Mimics the data-loader construction PATTERN of ultralytics/yolov5 train.py / create_dataloader
# (seeded training, a DataLoader with a seeded generator and per-worker seeds) for the two listing
# datasets of datasets.py. Independent re-creation for seedlint's test corpus, not the project's code.
import argparse
import random

import numpy as np
import torch
from torch.utils.data import DataLoader

from datasets import LoadImagesAndLabels, PngFolder


def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


def create_dataloader(path, imgsz, batch_size, augment=False, workers=8, shuffle=False, seed=0):
    dataset = LoadImagesAndLabels(path, imgsz, augment=augment, prefix="train: ")
    generator = torch.Generator()
    generator.manual_seed(6148914691236517205 + seed)
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, num_workers=workers,
                        pin_memory=False, worker_init_fn=seed_worker, generator=generator)
    return loader, dataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", nargs="+", default=["data/images/train"])
    parser.add_argument("--extra", default="data/extra_png")
    parser.add_argument("--imgsz", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    opt = parser.parse_args()

    random.seed(opt.seed)
    np.random.seed(opt.seed)
    torch.manual_seed(opt.seed)

    train_loader, dataset = create_dataloader(opt.data, opt.imgsz, opt.batch_size, augment=True,
                                              workers=opt.workers, shuffle=True, seed=opt.seed)
    extra_loader = DataLoader(PngFolder(opt.extra), batch_size=opt.batch_size, shuffle=False)
    print(f"{len(dataset)} training images, {len(extra_loader.dataset)} extra images")

    for epoch in range(opt.epochs):
        for images, labels in train_loader:
            pass
        for images, names in extra_loader:
            pass
        print(f"epoch {epoch}: last batch {tuple(images.shape)}")


if __name__ == "__main__":
    main()
