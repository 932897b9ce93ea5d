# Mimics the PATTERN of the same PPO script seeded with a constant before it records the seed:
# `initial_seed()` then returns that seed. Nothing to report. Independent re-creation for
# seedlint's test corpus, not its code.
import torch
import torch.nn as nn


class Config:
    torch_seed = None


def main():
    config = Config()
    torch.manual_seed(7)
    config.torch_seed = torch.initial_seed()
    print(config.torch_seed)
    policy = nn.Linear(4, 2)
    optimizer = torch.optim.Adam(policy.parameters())
    for _ in range(5):
        loss = policy(torch.ones(8, 4)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
