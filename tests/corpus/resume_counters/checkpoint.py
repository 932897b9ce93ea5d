# Mimics the PATTERN of graph-learning experiment managers (a checkpoint helper that restores model, optimizer and scheduler and returns the epoch to start from; another that also restores the generators). Independent re-creation for seedlint's test corpus, not its code.

import torch


def load_ckpt(model, optimizer, path="ckpt.pt"):
    state = torch.load(path)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    return state["epoch"] + 1


def load_full_ckpt(model, optimizer, path="ckpt.pt"):
    state = torch.load(path, weights_only=False)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    torch.set_rng_state(state["rng"])
    return state["epoch"] + 1
