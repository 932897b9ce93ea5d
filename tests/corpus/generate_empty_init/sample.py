# Mimics the sampling PATTERN of karpathy/nanoGPT sample.py: the model is built with random init,
# every weight is then replaced by a strict load_state_dict of the checkpoint, the model is put in
# eval mode and moved to the device, and the seed is set just before sampling. Independent
# re-creation for seedlint's test corpus, not the project's code.
import os

import torch

from model import GPT, GPTConfig

out_dir = "out"
start = "\n"
num_samples = 3
max_new_tokens = 100
temperature = 0.8
top_k = 20
seed = 1337
device = "cpu"

ckpt_path = os.path.join(out_dir, "ckpt.pt")
checkpoint = torch.load(ckpt_path, map_location=device)
config = GPTConfig(**checkpoint["model_args"])
model = GPT(config)
state_dict = checkpoint["model"]
unwanted_prefix = "_orig_mod."
for k in list(state_dict.keys()):
    if k.startswith(unwanted_prefix):
        state_dict[k[len(unwanted_prefix):]] = state_dict.pop(k)
model.load_state_dict(state_dict)
model.eval()
model.to(device)

torch.manual_seed(seed)
stoi = {chr(i + 32): i for i in range(config.vocab_size)}
itos = {i: ch for ch, i in stoi.items()}
start_ids = [stoi.get(c, 0) for c in start]
x = torch.tensor(start_ids, dtype=torch.long, device=device)[None, ...]

with torch.no_grad():
    for k in range(num_samples):
        y = model.generate(x, max_new_tokens, temperature=temperature, top_k=top_k)
        print("".join(itos[int(i)] for i in y[0].tolist()))
        print("---------------")
