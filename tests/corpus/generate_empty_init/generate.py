# Mimics the generation PATTERN of Lightning-AI/litgpt generate/base.py in plain torch: the model
# is built on the meta device (its random init is thrown away), the checkpoint is loaded with
# load_state_dict(assign=True), and only then is the sampling seeded and tokens drawn with
# torch.multinomial. Independent re-creation for seedlint's test corpus, not the project's code.
import argparse
import time

import torch

from model import GPT, GPTConfig


@torch.inference_mode()
def generate(model, prompt, max_returned_tokens, temperature=0.8, top_k=50):
    tokens = prompt.unsqueeze(0)
    for _ in range(max_returned_tokens - prompt.size(0)):
        logits = model(tokens[:, -model.config.block_size:])[:, -1] / temperature
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits = torch.where(logits < v[:, [-1]], torch.full_like(logits, -float("inf")), logits)
        next_token = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)
        tokens = torch.cat((tokens, next_token), dim=1)
    return tokens[0]


def main():
    parser = argparse.ArgumentParser(description="Sample from a small GPT checkpoint.")
    parser.add_argument("--checkpoint", default="out/lit_model.pth")
    parser.add_argument("--prompt", default="Hello, my name is")
    parser.add_argument("--num_samples", type=int, default=2)
    parser.add_argument("--max_new_tokens", type=int, default=50)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top_k", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()

    config = GPTConfig()
    t0 = time.perf_counter()
    with torch.device("meta"):
        model = GPT(config)
    state_dict = torch.load(args.checkpoint, mmap=True, weights_only=True)
    model.load_state_dict(state_dict, assign=True)
    model.eval()
    print(f"Time to load the model weights: {time.perf_counter() - t0:.02f} seconds.")

    torch.manual_seed(args.seed)
    encoded = torch.tensor([ord(c) % config.vocab_size for c in args.prompt], dtype=torch.long)
    for i in range(args.num_samples):
        y = generate(model, encoded, encoded.size(0) + args.max_new_tokens, args.temperature, args.top_k)
        print(f"sample {i}:", "".join(chr(32 + int(t) % 95) for t in y))


if __name__ == "__main__":
    main()
