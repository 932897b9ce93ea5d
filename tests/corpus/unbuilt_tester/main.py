# Mimics the PATTERN of the entry point that builds the trainer of the chosen model. Independent
# re-creation for seedlint's test corpus, not its code.
import torch

from solver import Trainer

if __name__ == "__main__":
    loader = [(torch.ones(4, 3, 32, 32), torch.ones(4, 3, 32, 32))]
    Trainer({"seed": 123}, loader).run(3)
    # LapTrainer({"seed": 1, "checkpoint": "lap.pt"}, loader).run(3)
