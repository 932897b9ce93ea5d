# Mimics the PATTERN of GLUE fine-tuning scripts whose `load_examples` reseeds to subsample the same examples every time, and whose `evaluate` loads its sets only when none are handed to it. Independent re-creation for seedlint's test corpus, not its code.

import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def load_examples(task, size=32):
    set_seed(0)  # the same subsample every time
    rows = torch.randn(1000, 8)
    return rows[torch.randperm(1000)[:size]]


def evaluate(model, task, eval_sets=None):
    if eval_sets is None:
        eval_set = load_examples(task)
    else:
        eval_set = eval_sets[0]
    with torch.no_grad():
        return model(eval_set).mean().item()
