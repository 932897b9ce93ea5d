# Mimics the training-script PATTERN of diffusion fine-tuning repos (diffusers-style DreamBooth and
# super-resolution examples): seeded once, datasets from datasets.py, a shuffled DataLoader with a
# seeded generator. The bug is in datasets.py (unsorted iterdir listings). Independent re-creation
# for seedlint's test corpus, not any project's code.
import argparse

import torch
from torch.utils.data import DataLoader

from datasets import PairedSRFolder, PriorPreservationDataset


def collate_fn(examples):
    batch = {"pixel_values": torch.stack([e["instance_images"] for e in examples])}
    if "class_images" in examples[0]:
        batch["class_pixel_values"] = torch.stack([e["class_images"] for e in examples])
    return batch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--instance_data_dir", default="data/instance")
    parser.add_argument("--class_data_dir", default=None)
    parser.add_argument("--sr_data_dir", default="data/hr")
    parser.add_argument("--resolution", type=int, default=32)
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--num_train_epochs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)

    dreambooth = PriorPreservationDataset(
        args.instance_data_dir, args.class_data_dir, size=args.resolution
    )
    dreambooth_loader = DataLoader(dreambooth, batch_size=args.train_batch_size, shuffle=True,
                                   collate_fn=collate_fn, generator=generator)
    sr_loader = DataLoader(PairedSRFolder(args.sr_data_dir, size=args.resolution),
                           batch_size=args.train_batch_size, shuffle=True, generator=generator)

    for epoch in range(args.num_train_epochs):
        for batch in dreambooth_loader:
            pixel_values = batch["pixel_values"]
        for lr, hr in sr_loader:
            pass
        print(f"epoch {epoch}: {tuple(pixel_values.shape)} {tuple(hr.shape)}")


if __name__ == "__main__":
    main()
