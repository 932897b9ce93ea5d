# Mimics the helper-module PATTERN of facebookresearch/dino utils.py (fix_random_seeds, distributed
# setup read from torchrun's environment). Independent re-creation for seedlint's test corpus.
import os

import numpy as np
import torch
import torch.distributed as dist


def fix_random_seeds(seed=31):
    """Seed torch (CPU and every CUDA device) and NumPy."""
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    np.random.seed(seed)


def init_distributed_mode(args):
    args.rank = int(os.environ["RANK"])
    args.world_size = int(os.environ["WORLD_SIZE"])
    args.gpu = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(args.gpu)
    dist.init_process_group(backend="nccl", world_size=args.world_size, rank=args.rank)


def get_world_size():
    return dist.get_world_size() if dist.is_initialized() else 1
