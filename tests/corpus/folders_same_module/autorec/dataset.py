# Mimics the PATTERN of recommender repositories with one folder per model, each a script beside its own `dataset.py`; this one draws nothing when imported. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import Dataset


class RatingDataset(Dataset):
    def __init__(self, ratings):
        self.ratings = torch.as_tensor(ratings, dtype=torch.float32)

    def __len__(self):
        return len(self.ratings)

    def __getitem__(self, index):
        return self.ratings[index]
