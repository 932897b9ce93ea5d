# Mimics the PATTERN of radiance-field training scripts (seeded; the checkpoint's `global_step` read into `start`, then `for i in trange(start, n_iters)`, tqdm's range with a progress bar; no generator state restored). Independent re-creation for seedlint's test corpus, not its code.

import torch
from tqdm import trange

torch.manual_seed(0)
model = torch.nn.Linear(3, 4)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
start = 0
ckpt = torch.load("logs/200000.tar")
model.load_state_dict(ckpt["network_fn_state_dict"])
start = ckpt["global_step"]
for i in trange(start, 200000):
    rays = torch.rand(1024, 3)
    loss = model(rays).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
