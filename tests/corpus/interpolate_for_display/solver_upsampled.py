# Mimics the PATTERN of super-resolution solvers that upsample the network's output with bicubic
# `F.interpolate` inside the training loss. Independent re-creation for seedlint's test
# corpus, not its code.
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.tensorboard import SummaryWriter
from torchvision import utils as vutils


class Basic:
    def __init__(self, log_dir):
        self.writer = SummaryWriter(log_dir)


class Trainer(Basic):
    def __init__(self, log_dir, train_loader, test_loader):
        super().__init__(log_dir)
        torch.manual_seed(0)
        self.model = nn.Conv2d(3, 3, 3, padding=1).cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)
        self.train_loader, self.test_loader = train_loader, test_loader

    def train(self):
        for lr, hr in self.train_loader:
            upsampled = F.interpolate(self.model(lr.cuda()), scale_factor=2, mode="bicubic")
            loss = F.l1_loss(upsampled, hr.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def test(self):
        outputs = []
        with torch.no_grad():
            for lr, _ in self.test_loader:
                outputs.append(self.model(lr.cuda()))
        return outputs

    def run(self, epochs):
        for epoch in range(epochs):
            self.train()
            save_output = self.test()
            for i in range(len(save_output)):
                save_output[i] = F.interpolate(save_output[i], size=256, mode="bicubic")
                grid = vutils.make_grid(save_output[i])
                self.writer.add_image(f"image-{i}", grid, epoch)


if __name__ == "__main__":
    loader = [(torch.ones(4, 3, 32, 32), torch.ones(4, 3, 64, 64))]
    Trainer("runs", loader, loader).run(3)
