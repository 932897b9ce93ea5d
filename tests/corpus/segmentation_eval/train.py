# Mimics the PATTERN of semantic-segmentation training scripts (labels resized by interpolation on the CPU, loss on upsampled logits, `histc` counts for mIoU, a `validate()` beside `train()`). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.nn.functional as F
from torch import nn


def intersection_and_union(output, target, classes):
    intersection = output[output == target]
    area_intersection = torch.histc(intersection, bins=classes, min=0, max=classes - 1)
    area_output = torch.histc(output, bins=classes, min=0, max=classes - 1)
    area_target = torch.histc(target, bins=classes, min=0, max=classes - 1)
    return area_intersection, area_output + area_target - area_intersection, area_target


def train(loader, model, optimizer):
    model.train()
    for images, target in loader:
        target = F.interpolate(target.unsqueeze(1).float(), size=(8, 8), mode="bilinear", align_corners=True).squeeze(1).long()
        images, target = images.cuda(), target.cuda()
        output = model(images)
        logits = F.interpolate(output, size=(8, 8), mode="bilinear", align_corners=True)
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        intersection, union, target = intersection_and_union(logits.argmax(1), target, 2)
        print((intersection / union).mean().item())


def validate(loader, model):
    model.eval()
    for images, target in loader:
        output = model(images.cuda())
        output = F.interpolate(output, size=(8, 8), mode="bilinear", align_corners=True)
        intersection, union, _ = intersection_and_union(output.argmax(1), target.cuda(), 2)
        print((intersection / union).mean().item())


def main():
    torch.manual_seed(0)
    model = nn.Conv2d(3, 2, 1).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(2, 3, 16, 16), torch.randint(0, 2, (2, 16, 16)))]
    for epoch in range(2):
        train(loader, model, optimizer)
        validate(loader, model)


if __name__ == "__main__":
    main()
