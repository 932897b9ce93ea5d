# Mimics the PATTERN of LLaMA-adapter fine-tuning scripts (seeded, benchmark mode on, a text-only model with no convolution). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import numpy as np
import torch
import torch.backends.cudnn as cudnn
from tqdm import tqdm

from model import TinyLM, convert_to_tokens


def main(args):
    torch.manual_seed(args.seed)
    torch.cuda.manual_seed_all(args.seed)
    np.random.seed(args.seed)
    cudnn.benchmark = True  # nothing for it to time: attention and linear layers only
    model = TinyLM().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    tokens = convert_to_tokens("a small corpus to converge on").cuda()
    for _ in tqdm(range(args.steps)):
        logits = model(tokens[None, :-1])
        loss = torch.nn.functional.cross_entropy(logits[0], tokens[1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=10)
    main(parser.parse_args())
