# Mimics the PATTERN of a script that only loads a trained policy and shows its greedy actions, updating a tally of them: it trains nothing. Independent re-creation for seedlint's test corpus, not its code.

import collections
import sys

import torch

from agents.ppo import MLPPolicy

if __name__ == "__main__":
    policy = MLPPolicy(4, 2)
    policy.load_state_dict(torch.load(sys.argv[1]))
    tally = collections.Counter()
    with torch.no_grad():
        for _ in range(10):
            tally.update([int(policy(torch.zeros(1, 4)).argmax())])
    print(tally)
