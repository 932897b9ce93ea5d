# Mimics the PATTERN of annotated tutorials (a loader helper making a `DistributedSampler` only `if is_distributed`, called with `is_distributed=False` for the demo; a loop showing one batch at a time with `next(iter(loader))`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def create_loader(dataset, is_distributed=True):
    sampler = DistributedSampler(dataset) if is_distributed else None
    return DataLoader(dataset, batch_size=4, sampler=sampler, shuffle=sampler is None)


def check_outputs(loader, model, n_examples=5):
    for index in range(n_examples):
        batch = next(iter(loader))
        print(index, model(batch[0]).argmax(-1))


def run_example(model):
    torch.manual_seed(0)
    dataset = TensorDataset(torch.randn(32, 4))
    loader = create_loader(dataset, is_distributed=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for (x,) in loader:
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    check_outputs(loader, model)


if __name__ == "__main__":
    run_example(torch.nn.Linear(4, 2))
