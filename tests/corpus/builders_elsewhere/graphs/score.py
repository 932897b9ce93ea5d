# Mimics the PATTERN of graph benchmark scoring scripts (a trained model loaded and scored through another module's fixed-order loader; nothing seeded, nothing trained). Independent re-creation for seedlint's test corpus, not its code.

import torch
from train_eval import evaluate_fixed

if __name__ == "__main__":
    model = torch.load("model.pt")
    print(evaluate_fixed(torch.load("graphs.pt"), model))
