# Mimics the PATTERN of facebookresearch/detectron2 tools/train_net.py (setup through a helper in
# another module, then a model and an iteration-based loop over an endless loader). Independent
# re-creation for seedlint's test corpus, not its code.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import TensorDataset

from d2lite.data.build import build_detection_train_loader
from d2lite.engine.defaults import default_setup


def main(args):
    cfg = {"SEED": args.seed, "CUDNN_BENCHMARK": False, "MAX_ITER": args.max_iter}
    default_setup(cfg, rank=0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
    model.to(torch.device("cuda"))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    dataset = TensorDataset(torch.zeros(64, 3, 32, 32), torch.zeros(64, dtype=torch.long))
    loader = build_detection_train_loader(dataset, total_batch_size=16, num_workers=4, seed=args.seed)
    for iteration, batch in zip(range(cfg["MAX_ITER"]), loader):
        images = torch.stack([image for image, _ in batch]).cuda()
        labels = torch.stack([label for _, label in batch]).cuda()
        loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=-1)
    parser.add_argument("--max-iter", type=int, default=1000)
    main(parser.parse_args())
