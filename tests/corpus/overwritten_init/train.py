# Mimics the entry-point PATTERN of RLHF example scripts (a pretrained model resized, heads built, the program seeded through a helper, samples decoded without a seed, then training). Independent re-creation for seedlint's test corpus, not its code.

import torch
from transformers import AutoModelForCausalLM

import utils
from heads import RewardHead, ValueHead


def main():
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    utils.stable_resize_token_embeddings(model, 50260)
    value = ValueHead(768)
    reward = RewardHead(768)
    utils.manual_seed(42)
    samples = utils.decode(model, ["Once upon a time"])
    optimizer = torch.optim.Adam([*value.parameters(), *reward.parameters()])
    hidden = torch.randn(len(samples), 768)
    loss = (value(hidden) - reward(hidden)).pow(2).mean()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
