# Mimics the seeding and batching PATTERN of karpathy/nanoGPT train.py (torchrun DDP read from the
# environment, torch.manual_seed(1337 + seed_offset), TF32 flags, random batches drawn with
# torch.randint from a np.memmap). Independent re-creation for seedlint's test corpus, not its code.
import os

import numpy as np
import torch
from torch.distributed import init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP

from model import GPT, GPTConfig

data_dir = "data/shakespeare_char"
batch_size, block_size, max_iters, eval_iters = 12, 256, 5000, 200
device = "cuda"

ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    init_process_group(backend="nccl")
    ddp_rank = int(os.environ["RANK"])
    ddp_local_rank = int(os.environ["LOCAL_RANK"])
    device = f"cuda:{ddp_local_rank}"
    torch.cuda.set_device(device)
    seed_offset = ddp_rank
else:
    seed_offset = 0

torch.manual_seed(1337 + seed_offset)
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
device_type = "cuda" if "cuda" in device else "cpu"


def get_batch(split):
    data = np.memmap(os.path.join(data_dir, f"{split}.bin"), dtype=np.uint16, mode="r")
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy(data[i:i + block_size].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(data[i + 1:i + 1 + block_size].astype(np.int64)) for i in ix])
    if device_type == "cuda":
        x, y = x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)
    return x, y


model = GPT(GPTConfig())
model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
if ddp:
    model = DDP(model, device_ids=[ddp_local_rank])


@torch.no_grad()
def estimate_loss():
    model.eval()
    losses = torch.zeros(eval_iters)
    for k in range(eval_iters):
        _, loss = model(*get_batch("val"))
        losses[k] = loss.item()
    model.train()
    return losses.mean()


X, Y = get_batch("train")
for iter_num in range(max_iters):
    if iter_num % 250 == 0:
        print(f"step {iter_num}: val loss {estimate_loss():.4f}")
    _, loss = model(X, Y)
    X, Y = get_batch("train")
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
