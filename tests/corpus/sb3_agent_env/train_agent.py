# Mimics the agent PATTERN of stable-baselines3 users (an environment given to an agent built with seed=, and an evaluation environment of its own). Independent re-creation for seedlint's test corpus, not its code.

import gymnasium as gym
import torch
from stable_baselines3 import A2C


def main():
    torch.manual_seed(23)
    env = gym.make("Pendulum-v1")
    model = A2C("MlpPolicy", env, seed=23)
    warmup = [env.action_space.sample() for _ in range(10)]
    model.learn(total_timesteps=1000)
    probe_env = gym.make("Pendulum-v1")
    probes = [probe_env.action_space.sample() for _ in range(10)]
    return model, warmup, probes


if __name__ == "__main__":
    main()
