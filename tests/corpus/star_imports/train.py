# Mimics the PATTERN of semantic-segmentation training scripts (no `import torch` of its own: `torch` and the model both come from `from modeling.deeplab import *`; it seeds, trains on CUDA, and leaves deterministic algorithms off). Independent re-creation for seedlint's test corpus, not its code.

import argparse

from modeling.deeplab import *

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()
torch.manual_seed(args.seed)

model = DeepLab().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(10):
    image = torch.rand(2, 3, 32, 32, device="cuda")
    loss = model(image).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
