# Mimics the PATTERN of the training script: the helper's paths and labels handed to a dataset of its own, with a shuffling loader. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader, Dataset

from data.utils import count_images, list_checkpoints, load_paths_and_labels


class ImageDataset(Dataset):
    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return self.paths[index], self.labels[index]


torch.manual_seed(0)
paths, labels = load_paths_and_labels("images")
loader = DataLoader(ImageDataset(paths, labels), batch_size=4, shuffle=True)
print(len(count_images("images")), "images")
latest = max(list_checkpoints("checkpoints"), key=lambda path: int(path[-8:-4]))
