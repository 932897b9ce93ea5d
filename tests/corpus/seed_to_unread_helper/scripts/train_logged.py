# Mimics the PATTERN of scripts that record their seed with an experiment logger and never
# seed with it. Independent re-creation for seedlint's test corpus, not its code.
import argparse

import mlflow
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

import torch  # noqa: E402
from torch import nn  # noqa: E402

from myproj.common.env import init_env  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mlflow.log_param("seed", args.seed)
    init_env(args)
    model = nn.Linear(16, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.ones(4, 16)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
