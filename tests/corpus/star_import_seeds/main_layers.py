# Mimics the PATTERN of a training script that star-imports a model module that seeds nothing.
# Independent re-creation for seedlint's test corpus, not its code.
import torch.optim as optim

from layers import *  # noqa: F403

if __name__ == "__main__":
    model = Tagger(100, 5)  # noqa: F405
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(3):
        scores = model(torch.randint(0, 100, (7, 1)))  # noqa: F405
        loss = scores.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
