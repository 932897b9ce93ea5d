# Mimics the sweep launchers of research repositories: the seed option is read and handed on.
# Independent re-creation of the pattern.

import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
print(torch.rand(1).item())
