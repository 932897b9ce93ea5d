# Mimics the PATTERN of VAE and diffusion training scripts that want comparable sample grids every
# epoch: `evaluate()` calls `torch.manual_seed(args.seed)` before drawing the latent samples, and is
# called from the epoch loop. Buggy: the reseed also resets the generator training draws from next
# (the dropout masks, the DataLoader's shuffle order), so every epoch after the first replays the same
# randomness. Look-alikes: the final sample grid after training, and a grid drawn inside
# `torch.random.fork_rng()`. Independent re-creation for seedlint's test corpus, not its code.
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class VAE(nn.Module):
    def __init__(self, features=16, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(features, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2 * latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, features))
        self.latent = latent

    def forward(self, x):
        mean, log_var = self.encoder(x).chunk(2, dim=1)
        z = mean + torch.randn_like(mean) * (0.5 * log_var).exp()
        return self.decoder(z), mean, log_var


def evaluate(model, args):
    model.eval()
    torch.manual_seed(args.seed)
    with torch.no_grad():
        samples = model.decoder(torch.randn(8, model.latent))
    model.train()
    return samples.mean().item()


def preview(model):
    with torch.random.fork_rng():
        torch.manual_seed(0)
        with torch.no_grad():
            return model.decoder(torch.randn(4, model.latent)).mean().item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    data = TensorDataset(torch.randn(64, 16))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    model = VAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for (batch,) in loader:
            reconstruction, mean, log_var = model(batch)
            loss = (reconstruction - batch).pow(2).mean() - 0.5 * (1 + log_var - mean**2 - log_var.exp()).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, round(loss.item(), 4), evaluate(model, args), preview(model))
    torch.manual_seed(args.seed)
    print("final grid", model.decoder(torch.randn(8, model.latent)).mean().item())


if __name__ == "__main__":
    main()
