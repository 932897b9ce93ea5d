# Mimics the PATTERN of RL experiment launchers (a seed picked at random when the variant gives none, carried to the run in a keyword dict expanded with `**`, seeded and logged there). Independent re-creation for seedlint's test corpus, not its code.

import json
import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def run_here(method, variant, seed=None, log_dir="runs"):
    if seed is None:
        seed = random.randint(0, 100000)
    variant["seed"] = seed
    with open(f"{log_dir}/variant.json", "w") as f:
        json.dump(variant, f)
    set_seed(seed)
    return method(variant)


def run_experiment(method, variant, seed=None, log_dir="runs"):
    if seed is None:
        seed = variant.get("seed")
        if seed is None:
            seed = random.randint(0, 100000)
    kwargs = dict(variant=variant, seed=seed, log_dir=log_dir)
    return run_here(method, **kwargs)
