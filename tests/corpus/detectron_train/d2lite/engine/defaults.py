# Mimics the PATTERN of detectron2 detectron2/engine/defaults.py default_setup (a negative SEED in
# the config asks for a random seed; otherwise each rank seeds with seed + rank). Independent
# re-creation for seedlint's test corpus, not its code.
import torch

from d2lite.utils.env import seed_all_rng


def default_setup(cfg, rank):
    seed = cfg["SEED"]
    seed_all_rng(None if seed < 0 else seed + rank)
    if not cfg.get("EVAL_ONLY", False):
        torch.backends.cudnn.benchmark = cfg.get("CUDNN_BENCHMARK", False)
