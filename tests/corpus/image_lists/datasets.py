# Mimics the file-listing PATTERN of ultralytics/yolov5 utils/dataloaders.py (LoadImagesAndLabels:
# `f += glob.glob(.., recursive=True)` over one or more roots, then
# `self.im_files = sorted(x for x in f if <image suffix>)`) and of pathlib-based datasets that take
# `list(Path(root).glob("*.png"))` and sort it on the next line. Both listings are sorted before
# anything reads them. Independent re-creation for seedlint's test corpus, not any project's code.
import glob
import os
from pathlib import Path

import torch
from torch.utils.data import Dataset

IMG_FORMATS = "bmp", "dng", "jpeg", "jpg", "mpo", "png", "tif", "tiff", "webp", "pfm"


def img2label_paths(img_paths):
    sa, sb = f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}"
    return [sb.join(x.rsplit(sa, 1)).rsplit(".", 1)[0] + ".txt" for x in img_paths]


class LoadImagesAndLabels(Dataset):
    def __init__(self, path, img_size=64, augment=False, prefix=""):
        self.img_size = img_size
        self.augment = augment
        try:
            f = []
            for p in path if isinstance(path, list) else [path]:
                p = Path(p)
                if p.is_dir():
                    f += glob.glob(str(p / "**" / "*.*"), recursive=True)
                elif p.is_file():
                    with open(p) as t:
                        parent = str(p.parent) + os.sep
                        t = t.read().strip().splitlines()
                        f += [x.replace("./", parent, 1) if x.startswith("./") else x for x in t]
                else:
                    raise FileNotFoundError(f"{prefix}{p} does not exist")
            self.im_files = sorted(x.replace("/", os.sep) for x in f if x.split(".")[-1].lower() in IMG_FORMATS)
            assert self.im_files, f"{prefix}No images found"
        except Exception as e:
            raise FileNotFoundError(f"{prefix}Error loading data from {path}") from e
        self.label_files = img2label_paths(self.im_files)

    def __len__(self):
        return len(self.im_files)

    def __getitem__(self, index):
        # Stand-in for cv2.imread + letterbox: a tensor derived from the file's position.
        image = torch.full((3, self.img_size, self.img_size), float(index % 255) / 255)
        if self.augment and torch.rand(1).item() < 0.5:
            image = image.flip(-1)
        return image, self.label_files[index]


class PngFolder(Dataset):
    def __init__(self, root, transform=None):
        self.paths = list(Path(root).glob("*.png"))
        self.paths = sorted(self.paths)
        self.transform = transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        image = torch.zeros(3, 32, 32) + len(self.paths[index].stem) / 100
        if self.transform is not None:
            image = self.transform(image)
        return image, self.paths[index].name
