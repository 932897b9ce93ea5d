# Mimics the PATTERN of speech-recognition entry scripts that seed, pick a CUDA device and call an epoch function of another module each epoch; the loss and the backward pass are in that function. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

from engine.loop import train_epoch


def main():
    torch.manual_seed(7)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.LSTM(8, 8).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        train_epoch(model, optimizer, device)


if __name__ == "__main__":
    main()
