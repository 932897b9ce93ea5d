# Mimics the entry-point PATTERN of RLHF example scripts (options read from a config file, the policy built, then `PPOTrainer(args, policy).train()`, whose base class seeds in its constructor). Independent re-creation for seedlint's test corpus, not its code.

import json
import sys
from types import SimpleNamespace

from torch import nn

from pkg.rl.ppo_trainer import PPOTrainer


def main():
    args = SimpleNamespace(**json.load(open(sys.argv[1])))
    policy = nn.Linear(4, 2)
    trainer = PPOTrainer(args, policy)
    trainer.train()


if __name__ == "__main__":
    main()
