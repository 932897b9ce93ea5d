# Mimics the PATTERN of semantic-segmentation training scripts run as `PYTHONPATH=./ python tool/train.py` (the model imported from a `model/` folder without `__init__.py`, seeded CUDA training). Independent re-creation for seedlint's test corpus, not its code.

import torch

from model.pspnet import PSPNet


def main():
    torch.manual_seed(0)
    model = PSPNet().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(2, 3, 8, 8).cuda()).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
