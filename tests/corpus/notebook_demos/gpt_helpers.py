# Mimics the helpers PATTERN of LLMs-from-scratch style notebooks (a GPT model, and a helper assigning every pretrained weight). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["dim"])
        self.head = nn.Linear(cfg["dim"], cfg["vocab"])

    def forward(self, tokens):
        return self.head(self.embed(tokens))


def load_weights_into_gpt(gpt, path):
    params = torch.load(path)
    gpt.embed.weight = nn.Parameter(params["embed"])
    gpt.head.weight = nn.Parameter(params["head.weight"])
    gpt.head.bias = nn.Parameter(params["head.bias"])
