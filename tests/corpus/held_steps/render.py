# Mimics the PATTERN of the project's sampling script: loads trained weights and only renders
# through the runner's `render()`, which trains nothing. Nothing to report. Independent
# re-creation for seedlint's test corpus, not its code.
import torch
import torch.nn as nn

from runners.runner import Runner

G = nn.Linear(8, 4)
D = nn.Linear(4, 1)
G.load_state_dict(torch.load("G.pt"))
runner = Runner(G, D, [], "lsgan")
print(runner.render())
