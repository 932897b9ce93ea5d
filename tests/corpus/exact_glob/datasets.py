# Mimics the PATTERN of Kaggle detection notebooks whose dataset finds each image by globbing the exact file name a table row gives, beside a dataset that globs a folder with a wildcard. Independent re-creation for seedlint's test corpus, not its code.

import glob

import cv2
import pandas as pd
import torch
from torch.utils.data import DataLoader, Dataset

root = "data/training_images/"


class BoxesFromTable(Dataset):
    def __init__(self, csv_path):
        self.df = pd.read_csv(csv_path)

    def __len__(self):
        return len(self.df)

    def __getitem__(self, idx):
        image = cv2.imread(glob.glob(root + self.df.iloc[idx]["image"])[0])
        return torch.as_tensor(image), torch.as_tensor(self.df.iloc[idx][["xmin", "ymin"]].values)


class ImagesInFolder(Dataset):
    def __init__(self):
        self.paths = glob.glob(root + "*.jpg")

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        return torch.as_tensor(cv2.imread(self.paths[idx]))


torch.manual_seed(0)
boxes = DataLoader(BoxesFromTable("boxes.csv"), batch_size=4, shuffle=True)
images = DataLoader(ImagesInFolder(), batch_size=4, shuffle=True)
