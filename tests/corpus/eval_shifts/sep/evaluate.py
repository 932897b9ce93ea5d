# Mimics the PATTERN of source-separation evaluators (random time shifts averaged at test time, from Python's random). Independent re-creation for seedlint's test corpus, not its code.

import random

import torch


def apply_model(model, mix, shifts=1):
    out = 0
    for _ in range(shifts):
        offset = random.randint(0, 8000)
        out = out + model(mix[..., offset:])
    return out / shifts


def evaluate(model, tracks, shifts=1):
    scores = [float((apply_model(model, mix, shifts) - ref).pow(2).mean()) for mix, ref in tracks]
    return sum(scores) / len(scores)
