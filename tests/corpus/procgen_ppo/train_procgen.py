# Mimics the PATTERN of PPO-on-Procgen scripts (CleanRL's ppo_procgen, the procgen baselines): `random`,
# NumPy and torch seeded from `--seed`, then `ProcgenEnv(num_envs=..., env_name=..., num_levels=0,
# start_level=0, distribution_mode="easy")`. Buggy: without `rand_seed=`, procgen draws the level seed from
# `random.SystemRandom`, so the levels (and the returns) change on every run. Look-alike: the evaluation
# environment built with `rand_seed=args.seed`. Independent re-creation for seedlint's test corpus, not its
# code.
import argparse
import random

import numpy as np
import torch
from procgen import ProcgenEnv


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--env-id", default="coinrun")
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    envs = ProcgenEnv(num_envs=64, env_name=args.env_id, num_levels=0, start_level=0, distribution_mode="easy")
    eval_envs = ProcgenEnv(num_envs=8, env_name=args.env_id, num_levels=0, start_level=0, rand_seed=args.seed)
    return envs, eval_envs


if __name__ == "__main__":
    main()
