# Mimics the PATTERN of a fine-tuning loop that lets `evaluate` load its set at each logging step (a condition written over two lines). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from glue import evaluate, set_seed


def train(task, steps=100, logging_steps=10):
    set_seed(42)
    model = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1), nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (
            step % logging_steps == 0  # log
            or step == steps - 1
        ):
            print(evaluate(model, task))


if __name__ == "__main__":
    train("mrpc")
