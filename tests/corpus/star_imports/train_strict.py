# Mimics the PATTERN of semantic-segmentation training scripts (`torch` and the model from `from strict.pspnet import *`; seeded, on CUDA, with deterministic algorithms on). Independent re-creation for seedlint's test corpus, not its code.

from strict.pspnet import *

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)

model = PSPNet().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(10):
    loss = model(torch.rand(2, 3, 32, 32, device="cuda")).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
