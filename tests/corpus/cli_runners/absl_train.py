# Mimics the PATTERN of absl-based training scripts (`app.run(main)`, `main(argv)` seeding from a flag first). Independent re-creation for seedlint's test corpus, not its code.

import torch
from absl import app, flags
from torch import nn

FLAGS = flags.FLAGS
flags.DEFINE_integer("seed", 0, "random seed")


def main(argv):
    del argv
    torch.manual_seed(FLAGS.seed)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    app.run(main)
