# Mimics the dataset PATTERN of super-resolution and diffusion fine-tuning repos (an image folder
# that may be skipped by a flag, and a DreamBooth-style prior-preservation "class images" folder that
# is only listed when prior preservation is on), made buggy on purpose: both listings come from
# Path.iterdir() and keep filesystem order, so index i is a different file on another machine.
# Independent re-creation for seedlint's test corpus, not any project's code.
from pathlib import Path

import torch
from torch.utils.data import Dataset


def load_image(path, size):
    # Stand-in for PIL.Image.open + resize: a tensor derived from the file name.
    return torch.full((3, size, size), (sum(map(ord, path.name)) % 256) / 255.0)


class PairedSRFolder(Dataset):
    """High-resolution images, downsampled on the fly; `latents_only` skips the image listing."""

    def __init__(self, root, size=32, scale=2, latents_only=False, num_latents=0):
        if latents_only:
            images = None
        else:
            images = list(Path(root).iterdir())
        self.images = images
        self.num_latents = num_latents
        self.size = size
        self.scale = scale

    def __len__(self):
        return self.num_latents if self.images is None else len(self.images)

    def __getitem__(self, index):
        if self.images is None:
            return torch.zeros(4, self.size // 8, self.size // 8)
        hr = load_image(self.images[index], self.size)
        lr = torch.nn.functional.avg_pool2d(hr, self.scale)
        return lr, hr


class PriorPreservationDataset(Dataset):
    """Instance images of the subject, plus generated class images when prior preservation is on."""

    def __init__(self, instance_root, class_root=None, size=32):
        self.size = size
        self.instance_images = sorted(Path(instance_root).iterdir())
        self.num_instance_images = len(self.instance_images)
        self._length = self.num_instance_images
        if class_root is None:
            self.class_root = None
            self.class_paths = None
        else:
            self.class_root = Path(class_root)
            self.class_paths = list(self.class_root.iterdir())
            self.num_class_images = len(self.class_paths)
            self._length = max(self.num_class_images, self.num_instance_images)

    def __len__(self):
        return self._length

    def __getitem__(self, index):
        instance_path = self.instance_images[index % self.num_instance_images]
        example = {"instance_images": load_image(instance_path, self.size)}
        if self.class_paths is not None:
            class_path = self.class_paths[index % self.num_class_images]
            example["class_images"] = load_image(class_path, self.size)
        return example
