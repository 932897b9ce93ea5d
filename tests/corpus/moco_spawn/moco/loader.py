# Mimics the augmentation-helper PATTERN of facebookresearch/moco moco/loader.py (two random crops
# of one image, a blur with a randomly drawn sigma). Independent re-creation for seedlint's corpus.
import random

from PIL import ImageFilter


class TwoCropsTransform:
    """Two independently augmented views of the same image."""

    def __init__(self, base_transform):
        self.base_transform = base_transform

    def __call__(self, image):
        return [self.base_transform(image), self.base_transform(image)]


class GaussianBlur:
    """Blur with a sigma drawn from the global `random` module (seeded per worker by torch)."""

    def __init__(self, sigma=(0.1, 2.0)):
        self.sigma = sigma

    def __call__(self, image):
        sigma = random.uniform(self.sigma[0], self.sigma[1])
        return image.filter(ImageFilter.GaussianBlur(radius=sigma))
