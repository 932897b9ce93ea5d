# Mimics the PATTERN of karpathy/minGPT projects/chargpt/chargpt.py (set_seed from the package, a
# character vocabulary built from sorted(set(text)), a Trainer class in another module).
# Independent re-creation for seedlint's test corpus, not its code.
import sys

import torch
import torch.nn as nn
from torch.utils.data import Dataset

from mingpt.trainer import Trainer
from mingpt.utils import set_seed


class CharDataset(Dataset):
    def __init__(self, data, block_size=128):
        chars = sorted(list(set(data)))
        self.stoi = {ch: i for i, ch in enumerate(chars)}
        self.vocab_size = len(chars)
        self.block_size = block_size
        self.data = data

    def __len__(self):
        return len(self.data) - self.block_size

    def __getitem__(self, idx):
        chunk = [self.stoi[s] for s in self.data[idx:idx + self.block_size + 1]]
        return torch.tensor(chunk[:-1]), torch.tensor(chunk[1:])


class TinyLM(nn.Module):
    def __init__(self, vocab_size, n_embd=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, n_embd)
        self.head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        return self.head(self.emb(idx))


if __name__ == "__main__":
    set_seed(3407)
    text = open(sys.argv[1]).read()
    train_dataset = CharDataset(text)
    model = TinyLM(train_dataset.vocab_size)
    Trainer(model, train_dataset).run()
