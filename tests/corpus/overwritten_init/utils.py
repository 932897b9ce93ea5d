# Mimics the helpers of RLHF and instruction-tuning projects (Alpaca-style embedding resize that sets the new rows to the mean of the old ones, random jitter only when asked; a decoding helper that seeds only when given a seed; a seeding helper that takes the clock when given none). Independent re-creation for seedlint's test corpus, not its code.

import time

import torch


def manual_seed(seed):
    torch.manual_seed(seed)


def seed_everything(seed=None):
    if seed is None:
        seed = int(time.time())
    torch.manual_seed(seed)


def stable_resize_token_embeddings(model, target_size, jitter_new_embeddings=False):
    num_new_tokens = target_size - model.get_input_embeddings().weight.size(0)
    model.resize_token_embeddings(target_size)
    if num_new_tokens > 0:

        def stable_init(embedding):
            data = embedding.weight.data
            data[-num_new_tokens:] = data[:-num_new_tokens].mean(dim=0, keepdim=True)
            if jitter_new_embeddings:
                data[-num_new_tokens:] += torch.randn_like(data[-num_new_tokens:]) * 0.01

        stable_init(model.get_input_embeddings())


def decode(model, prompts, seed=None):
    if seed is not None:
        manual_seed(seed)
    return [model.generate(prompt, do_sample=True) for prompt in prompts]
