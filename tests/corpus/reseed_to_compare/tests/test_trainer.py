# Mimics the PATTERN of fine-tuning libraries' trainer smoke tests (an adapter drawn, then a Trainer that seeds as it is built, asserting only that training ran). Independent re-creation for seedlint's test corpus, not its code.

from torch import nn
from transformers import Trainer, TrainingArguments


def test_train_adapter(tmp_path):
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
    trainer = Trainer(model=model, args=TrainingArguments(output_dir=str(tmp_path)))
    trainer.train()
    assert trainer.state.log_history
