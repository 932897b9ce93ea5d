# Mimics the PATTERN of fine-tuning libraries' trainer smoke tests (an adapter drawn, then a Trainer that seeds as it is built, asserting only that training ran; a project trainer given the seed, its loss checked against a fixed value). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn
from transformers import Trainer, TrainingArguments


def test_train_adapter(tmp_path):
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
    trainer = Trainer(model=model, args=TrainingArguments(output_dir=str(tmp_path)))
    trainer.train()
    assert trainer.state.log_history


class SeededTrainer(Trainer):
    """A trainer of the project that seeds from the seed it is given."""

    def __init__(self, model, random_state):
        torch.manual_seed(random_state)
        super().__init__(model=model)


def test_seeded_trainer_scores():
    model = nn.Linear(8, 2)  # drawn before the seed the test asks the trainer for
    trainer = SeededTrainer(model, random_state=42)
    trainer.train()
    assert abs(trainer.state.log_history[-1]["loss"] - 0.6931) < 1e-3
