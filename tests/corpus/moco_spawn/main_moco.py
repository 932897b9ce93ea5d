# Mimics the seeding and data-loading PATTERN of facebookresearch/moco main_moco.py (spawned DDP
# workers, TwoCropsTransform, DistributedSampler with set_epoch), with one change: each spawned worker
# seeds itself with `seed + rank`. Independent re-creation for seedlint's test corpus, not its code.
import argparse
import random

import torch
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms

import moco.loader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    ngpus_per_node = torch.cuda.device_count()
    mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))


def main_worker(gpu, ngpus_per_node, args):
    if args.seed is not None:
        random.seed(args.seed + gpu)
        torch.manual_seed(args.seed + gpu)
        cudnn.deterministic = True
    dist.init_process_group("nccl", init_method="env://", world_size=ngpus_per_node, rank=gpu)
    torch.cuda.set_device(gpu)
    model = models.resnet50(num_classes=128).cuda()
    model = nn.parallel.DistributedDataParallel(model, device_ids=[gpu])
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), 0.03, momentum=0.9, weight_decay=1e-4)
    cudnn.benchmark = True

    augmentation = transforms.Compose([
        transforms.RandomResizedCrop(224, scale=(0.2, 1.0)),
        transforms.RandomApply([moco.loader.GaussianBlur([0.1, 2.0])], p=0.5),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
    ])
    train_dataset = datasets.ImageFolder(args.data, moco.loader.TwoCropsTransform(augmentation))
    train_sampler = torch.utils.data.distributed.DistributedSampler(train_dataset)
    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=32, shuffle=False, num_workers=args.workers,
        pin_memory=True, sampler=train_sampler, drop_last=True,
    )
    for epoch in range(args.epochs):
        train_sampler.set_epoch(epoch)
        for images, _ in train_loader:
            query, key = images[0].cuda(non_blocking=True), images[1].cuda(non_blocking=True)
            logits = model(query) @ model(key).T
            labels = torch.arange(logits.shape[0]).cuda()
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
