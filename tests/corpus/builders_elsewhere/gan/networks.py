# Mimics the PATTERN of image-to-image GAN codebases (a model factory picks a model class by option, whose `initialize` builds generator and discriminator through `define_G`/`define_D` and loads saved weights only when resuming; a loader factory shuffling unless `--serial_batches`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


def define_g(channels):
    return nn.Sequential(nn.Conv2d(channels, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, channels, 3, padding=1))


def define_d(channels):
    return nn.Sequential(nn.Conv2d(channels, 16, 4, stride=2), nn.Flatten(), nn.LazyLinear(1))


class GanModel:
    def initialize(self, opt):
        self.net_g = define_g(3)
        self.net_d = define_d(3)
        if opt.continue_train:
            self.net_g.load_state_dict(torch.load(opt.checkpoint))


class InferenceModel:
    def initialize(self, opt):
        self.net_g = define_g(3)


def create_model(opt):
    if opt.is_train:
        model = GanModel()
    else:
        model = InferenceModel()
    model.initialize(opt)
    return model


def create_loader(opt, dataset):
    return torch.utils.data.DataLoader(dataset, batch_size=4, shuffle=not opt.serial_batches)
