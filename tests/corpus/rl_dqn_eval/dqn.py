# Mimics the PATTERN of CleanRL-style single-file DQN scripts: `make_env` thunks that seed each
# environment's action space, a `SyncVectorEnv` reset once with `seed=args.seed`, epsilon-greedy actions
# from `envs.single_action_space.sample()`, and `random`/NumPy/torch seeded at start-up. Buggy: the
# `evaluate()` run after training makes a fresh environment with `gym.make` and resets it without a
# seed, so the evaluation episodes (and the reported return) change from run to run. Independent
# re-creation for seedlint's test corpus, not its code.
import argparse
import random

import gymnasium as gym
import numpy as np
import torch
from torch import nn


def make_env(env_id, seed):
    def thunk():
        env = gym.make(env_id)
        env = gym.wrappers.RecordEpisodeStatistics(env)
        env.action_space.seed(seed)
        return env

    return thunk


class QNetwork(nn.Module):
    def __init__(self, observations, actions):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(observations, 32), nn.ReLU(), nn.Linear(32, actions))

    def forward(self, x):
        return self.network(x)


def evaluate(q_network, env_id, episodes=10):
    eval_env = gym.make(env_id)
    returns = []
    obs, _ = eval_env.reset()
    for _ in range(episodes):
        total, done = 0.0, False
        while not done:
            with torch.no_grad():
                action = q_network(torch.tensor(obs, dtype=torch.float32)).argmax().item()
            obs, reward, terminated, truncated, _ = eval_env.step(action)
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
        obs, _ = eval_env.reset()
    return returns


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    envs = gym.vector.SyncVectorEnv([make_env("CartPole-v1", args.seed + i) for i in range(2)])
    q_network = QNetwork(4, 2)
    optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-3)
    obs, _ = envs.reset(seed=args.seed)
    for step in range(args.steps):
        epsilon = max(0.05, 1.0 - step / args.steps)
        if random.random() < epsilon:
            actions = np.array([envs.single_action_space.sample() for _ in range(envs.num_envs)])
        else:
            actions = q_network(torch.tensor(obs, dtype=torch.float32)).argmax(dim=1).numpy()
        next_obs, rewards, terminations, truncations, _ = envs.step(actions)
        q_values = q_network(torch.tensor(obs, dtype=torch.float32)).gather(1, torch.tensor(actions)[:, None])
        target = torch.tensor(rewards, dtype=torch.float32)[:, None]
        loss = (q_values - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        obs = next_obs
    print("evaluation returns", evaluate(q_network, "CartPole-v1"))


if __name__ == "__main__":
    main()
