# Mimics the PATTERN of course notebooks and older scripts (`if args.cuda: torch.cuda.manual_seed(seed) else: torch.manual_seed(seed)`, weights then drawn on the CPU and moved). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()

if args.cuda:
    torch.cuda.manual_seed(args.seed)
else:
    torch.manual_seed(args.seed)

model = nn.Linear(4, 2)
if args.cuda:
    model = model.cuda()
print(model.weight)
