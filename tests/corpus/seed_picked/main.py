# Mimics the seeding PATTERN of pytorch/examples dcgan/main.py: `--manualSeed` defaults to None, a
# seed is then picked with random.randint, printed, and fed to random.seed and torch.manual_seed; a
# tiny generator/discriminator pair trains a few steps on random data. Independent re-creation for
# seedlint's test corpus, not the project's code.
import argparse
import random

import torch
import torch.nn as nn
import torch.optim as optim

parser = argparse.ArgumentParser()
parser.add_argument("--batchSize", type=int, default=16, help="input batch size")
parser.add_argument("--nz", type=int, default=8, help="size of the latent z vector")
parser.add_argument("--nf", type=int, default=16, help="hidden width of both networks")
parser.add_argument("--niter", type=int, default=3, help="number of epochs to train for")
parser.add_argument("--steps", type=int, default=4, help="batches per epoch")
parser.add_argument("--lr", type=float, default=0.0002, help="learning rate")
parser.add_argument("--beta1", type=float, default=0.5, help="beta1 for adam")
parser.add_argument("--manualSeed", type=int, help="manual seed")
opt = parser.parse_args()
print(opt)

if opt.manualSeed is None:
    opt.manualSeed = random.randint(1, 10000)
print("Random Seed: ", opt.manualSeed)
random.seed(opt.manualSeed)
torch.manual_seed(opt.manualSeed)

DATA_DIM = 32


def weights_init(m):
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, 0.0, 0.02)
        nn.init.zeros_(m.bias)


class Generator(nn.Module):
    def __init__(self, nz, nf):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, nf), nn.ReLU(True), nn.Linear(nf, DATA_DIM), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, nf):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(DATA_DIM, nf), nn.LeakyReLU(0.2, True), nn.Linear(nf, 1), nn.Sigmoid()
        )

    def forward(self, x):
        return self.main(x).view(-1)


netG = Generator(opt.nz, opt.nf)
netG.apply(weights_init)
netD = Discriminator(opt.nf)
netD.apply(weights_init)

criterion = nn.BCELoss()
fixed_noise = torch.randn(opt.batchSize, opt.nz)
real_label, fake_label = 1.0, 0.0
optimizerD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

for epoch in range(opt.niter):
    for i in range(opt.steps):
        # (1) Update D: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real = torch.randn(opt.batchSize, DATA_DIM).tanh()
        label = torch.full((opt.batchSize,), real_label)
        errD_real = criterion(netD(real), label)
        errD_real.backward()
        noise = torch.randn(opt.batchSize, opt.nz)
        fake = netG(noise)
        label.fill_(fake_label)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        optimizerD.step()

        # (2) Update G: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        errG = criterion(netD(fake), label)
        errG.backward()
        optimizerG.step()
        print("[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f"
              % (epoch, opt.niter, i, opt.steps, (errD_real + errD_fake).item(), errG.item()))

with torch.no_grad():
    print("fixed-noise sample sum: %.6f" % netG(fixed_noise).sum().item())
