# Mimics the PATTERN of a language-model training script that builds the model and hands the training to a trainer whose ignite engine runs the step, after seeding torch. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn, optim

from nmt.trainer import LanguageModelTrainer


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(100, 16), nn.Linear(16, 100))
    optimizer = optim.Adam(model.parameters())
    loader = torch.utils.data.DataLoader(torch.arange(64).view(32, 2), batch_size=4, shuffle=True)
    LanguageModelTrainer().train(model, nn.CrossEntropyLoss(), optimizer, loader, n_epochs=3)


if __name__ == "__main__":
    main()
