# Mimics the PATTERN of LLaMA-style adapter fine-tuning code (a text-only transformer of embeddings, attention written with matmul and softmax, and linear layers). Independent re-creation for seedlint's test corpus, not its code.

import math

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.feed_forward = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
        x = x + scores @ v
        return x + self.feed_forward(self.norm(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.head(self.blocks(self.embed(tokens)))


def convert_to_tokens(text):
    return torch.tensor([min(ord(c), 255) for c in text])
