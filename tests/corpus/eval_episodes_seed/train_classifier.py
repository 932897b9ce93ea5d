# Mimics the PATTERN of classifier training scripts that evaluate few-shot episodes every few
# epochs with NumPy seeded to 0 first; the training draws only from torch. Independent
# re-creation for seedlint's test corpus, not its code.
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(128, 16), torch.randint(0, 5, (128,)))
    train_loader = DataLoader(data, batch_size=16, shuffle=True)
    eval_loader = DataLoader(data, batch_size=32)
    model = nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.1), nn.Linear(32, 5))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(1, 11):
        model.train()
        for x, y in train_loader:
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if epoch % 5 == 0:
            model.eval()
            np.random.seed(0)
            for x, y in eval_loader:
                with torch.no_grad():
                    keep = np.random.rand(len(y)) < 0.5
                    print((model(x).argmax(1) == y)[torch.from_numpy(keep)].float().mean())


if __name__ == "__main__":
    main()
