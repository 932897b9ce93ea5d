# Mimics the PATTERN of segmentation training scripts (seeded; a `resume` option loads the checkpoint and sets `start_iter` from its `epoch`; the loop is `i = start_iter`, then `while i <= train_iters`; no generator state saved or restored). Independent re-creation for seedlint's test corpus, not its code.

import torch

torch.manual_seed(1337)
model = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8, shuffle=True)
resume, train_iters = "runs/last.pkl", 1000

start_iter = 0
if resume is not None:
    checkpoint = torch.load(resume)
    model.load_state_dict(checkpoint["model_state"])
    optimizer.load_state_dict(checkpoint["optimizer_state"])
    start_iter = checkpoint["epoch"]

i = start_iter
while i <= train_iters:
    for batch in loader:
        i += 1
        loss = model(batch).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save({"model_state": model.state_dict(), "optimizer_state": optimizer.state_dict(), "epoch": i}, resume)
