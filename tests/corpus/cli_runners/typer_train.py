# Mimics the PATTERN of training scripts built as typer apps (`@app.command()` functions, `app()` under `__main__`, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import torch
import typer
from torch import nn

app = typer.Typer()


@app.command()
def train(epochs: int = 3):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(epochs):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@app.command()
def export(path: str):
    print(path)


if __name__ == "__main__":
    app()
