# Mimics the PATTERN of a fine-tuning loop that loads its evaluation sets once and hands them to `evaluate` at each logging step. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from glue import evaluate, load_examples, set_seed


def train(task, steps=100, logging_steps=10):
    set_seed(42)
    model = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1), nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    eval_sets = [load_examples(name) for name in (task,)]
    for step in range(steps):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % logging_steps == 0:
            print(evaluate(model, task, eval_sets=eval_sets))


if __name__ == "__main__":
    train("mrpc")
