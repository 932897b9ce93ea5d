# Mimics the PATTERN of detection training scripts (`fire.Fire()` with no argument: the command line names the function, `python fire_all.py train`; the trainer built as `DetectorTrainer(model).cuda()`; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import fire
import torch
from trainer import DetectorTrainer


def train(epochs=14):
    model = torch.nn.Conv2d(3, 8, 3)
    trainer = DetectorTrainer(model).cuda()
    for epoch in range(epochs):
        trainer.train_step(torch.ones(2, 3, 16, 16).cuda())


def evaluate(checkpoint="model.pt"):
    print(torch.load(checkpoint))


if __name__ == "__main__":
    fire.Fire()
