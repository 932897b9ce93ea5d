# Mimics the PATTERN of PPO projects that record torch's start-up seed in their configuration
# (`config.torch_seed = torch.initial_seed()`) but seed nothing: `initial_seed()` only reads the
# seed torch picked from OS entropy, so every run differs (SL112). Independent re-creation for
# seedlint's test corpus, not its code.
import torch
import torch.nn as nn


class Config:
    torch_seed = None


def main():
    config = Config()
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
