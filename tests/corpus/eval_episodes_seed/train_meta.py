# Mimics the PATTERN of few-shot training scripts that reseed NumPy with the epoch before the
# training batches and with 0 before the evaluation episodes, on every epoch. Independent
# re-creation for seedlint's test corpus, not its code.
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def episodes(n):
    """Evaluation episodes: the classes each one samples, from NumPy."""
    return [np.random.choice(20, 5, replace=False) for _ in range(n)]


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(128, 16), torch.randint(0, 5, (128,)))
    train_loader = DataLoader(data, batch_size=16, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.1), nn.Linear(32, 5))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(1, 11):
        model.train()
        np.random.seed(epoch)
        for x, y in train_loader:
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        np.random.seed(0)
        for classes in episodes(4):
            with torch.no_grad():
                print(model(torch.from_numpy(classes).float().repeat(1, 4)[:, :16]).argmax())


if __name__ == "__main__":
    main()
