# Mimics the seeding and data-loading PATTERN of facebookresearch/dino main_dino.py (seeding through
# utils.fix_random_seeds in another module, DistributedSampler, loader.sampler.set_epoch, cudnn
# benchmark on). Independent re-creation for seedlint's test corpus, not its code.
import argparse

import torch
import torch.backends.cudnn as cudnn
import torch.nn as nn
from torchvision import datasets, transforms

import utils


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim, bottleneck_dim=256):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, 2048), nn.GELU(), nn.Linear(2048, bottleneck_dim))
        self.last_layer = nn.Linear(bottleneck_dim, out_dim, bias=False)

    def forward(self, x):
        x = nn.functional.normalize(self.mlp(x), dim=-1, p=2)
        return self.last_layer(x)


def train_dino(args):
    utils.init_distributed_mode(args)
    utils.fix_random_seeds(args.seed)
    cudnn.benchmark = True

    transform = transforms.Compose([
        transforms.RandomResizedCrop(224, scale=(0.4, 1.0)),
        transforms.RandomHorizontalFlip(p=0.5),
        transforms.ToTensor(),
    ])
    dataset = datasets.ImageFolder(args.data_path, transform=transform)
    sampler = torch.utils.data.DistributedSampler(dataset, shuffle=True)
    data_loader = torch.utils.data.DataLoader(
        dataset, sampler=sampler, batch_size=args.batch_size_per_gpu,
        num_workers=args.num_workers, pin_memory=True, drop_last=True,
    )

    student = nn.Sequential(nn.Flatten(), nn.Linear(3 * 224 * 224, 384), DINOHead(384, 65536))
    teacher = nn.Sequential(nn.Flatten(), nn.Linear(3 * 224 * 224, 384), DINOHead(384, 65536))
    student, teacher = student.cuda(), teacher.cuda()
    teacher.load_state_dict(student.state_dict())
    student = nn.parallel.DistributedDataParallel(student, device_ids=[args.gpu])
    optimizer = torch.optim.AdamW(student.parameters())

    for epoch in range(args.epochs):
        data_loader.sampler.set_epoch(epoch)
        for images, _ in data_loader:
            images = images.cuda(non_blocking=True)
            loss = -(student(images).softmax(-1) * teacher(images).log_softmax(-1)).sum(-1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser("DINO")
    parser.add_argument("--data_path", default="/path/to/imagenet/train/")
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--epochs", default=100, type=int)
    parser.add_argument("--batch_size_per_gpu", default=64, type=int)
    parser.add_argument("--num_workers", default=10, type=int)
    train_dino(parser.parse_args())
