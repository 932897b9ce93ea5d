# Mimics the PATTERN of CIFAR training scripts (seeded, benchmark mode on, a convolutional model from a project module). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.backends.cudnn as cudnn

from nets import small_cnn


def main():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    cudnn.benchmark = True
    model = small_cnn().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    images, labels = torch.zeros(8, 3, 32, 32).cuda(), torch.zeros(8, dtype=torch.long).cuda()
    for _ in range(10):
        loss = torch.nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
