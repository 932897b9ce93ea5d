# Mimics the PATTERN of the project's display script: it builds the agent, loads trained weights and hands it to the display loop, which never trains. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch

import runner
from agent import DoubleDQNAgent

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
args = parser.parse_args()

dqn = DoubleDQNAgent(input_dim=16)
dqn.q_net.load_state_dict(torch.load(args.checkpoint))
runner.run_display(dqn, episodes=3)
