# Mimics the PATTERN of an entry script that seeds and hands training to a trainer class of another module; the trainer moves the critic to CUDA and turns deterministic algorithms on. Independent re-creation for seedlint's test corpus, not its code.

import torch

from critic_trainer import CriticTrainer

torch.manual_seed(2)
CriticTrainer().fit()
