# Mimics the PATTERN of speech-synthesis training scripts (seeded; the script's own `load_checkpoint` reads `iteration` from the checkpoint and returns it with model and optimizer; the loop is `while iteration <= max_iter`; no generator state restored: one resume, one finding). Independent re-creation for seedlint's test corpus, not its code.

import torch


def load_checkpoint(path, model, optimizer):
    ckpt_dict = torch.load(path)
    model.load_state_dict(ckpt_dict["model"])
    optimizer.load_state_dict(ckpt_dict["optimizer"])
    iteration = ckpt_dict["iteration"]
    return model, optimizer, iteration


def train(ckpt_path, max_iter=1000):
    torch.manual_seed(1234)
    model = torch.nn.Linear(4, 2)
    optimizer = torch.optim.Adam(model.parameters())
    iteration = 1
    if ckpt_path:
        model, optimizer, iteration = load_checkpoint(ckpt_path, model, optimizer)
        iteration += 1
    loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8, shuffle=True)
    while iteration <= max_iter:
        for batch in loader:
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1


if __name__ == "__main__":
    train("ckpt/last.pt")
