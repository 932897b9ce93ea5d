# Mimics the PATTERN of DeepSpeed training scripts (the engine's `backward(loss)` and `step()`, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import deepspeed
import torch
from torch import nn


def main():
    model = nn.Linear(4, 2)
    model_engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    for _ in range(3):
        loss = model_engine(torch.randn(8, 4)).sum()
        model_engine.backward(loss)
        model_engine.step()


if __name__ == "__main__":
    main()
