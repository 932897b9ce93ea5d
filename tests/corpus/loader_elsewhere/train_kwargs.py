# Mimics the PATTERN of a DDP training script building its loader from keyword arguments the data module returns (`DataLoader(dataset, **loader_kwargs(dataset))`), never calling `set_epoch`. Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.distributed as dist
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from data import loader_kwargs


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    dataset = TensorDataset(torch.randn(64, 4))
    loader = DataLoader(dataset, **loader_kwargs(dataset))
    for epoch in range(3):
        for (x,) in loader:
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
