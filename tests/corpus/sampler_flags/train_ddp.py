# Mimics the PATTERN's distributed training script (the same helper with its default `is_distributed=True`, an epoch loop without `set_epoch`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def create_loader(dataset, is_distributed=True):
    sampler = DistributedSampler(dataset) if is_distributed else None
    return DataLoader(dataset, batch_size=4, sampler=sampler, shuffle=sampler is None)


def train(model):
    torch.manual_seed(0)
    loader = create_loader(TensorDataset(torch.randn(32, 4)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for (x,) in loader:
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    train(torch.nn.Linear(4, 2))
