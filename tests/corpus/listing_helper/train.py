# Mimics the PATTERN of the training script: the helper's paths and labels handed to the data module's dataset, with a shuffling loader. Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch.utils.data import DataLoader

from data.utils import ImageDataset, count_images, list_checkpoints, load_paths_and_labels


torch.manual_seed(0)
paths, labels = load_paths_and_labels("images")
loader = DataLoader(ImageDataset(paths, labels), batch_size=4, shuffle=True)
print(len(count_images("images")), "images")
latest = max(list_checkpoints("checkpoints"), key=lambda path: int(path[-8:-4]))
