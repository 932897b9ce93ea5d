# Mimics the PATTERN of the project's optimisation script: it builds the agent and hands it to the training loop of another module, seeding nothing. Independent re-creation for seedlint's test corpus, not its code.

import argparse

import runner
from agent import DoubleDQNAgent

parser = argparse.ArgumentParser()
parser.add_argument("--episodes", type=int, default=10)
args = parser.parse_args()

dqn = DoubleDQNAgent(input_dim=16)
runner.run_training(dqn, args.episodes)
