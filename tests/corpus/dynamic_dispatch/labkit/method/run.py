# Mimics the PATTERN of a training runner class named like its module (`class run` in `run.py`, whose `run` method trains). Independent re-creation for seedlint's test corpus, not its code.

import torch


class run:
    def run(self, model, batches, epochs=2):
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            for batch in batches:
                loss = model(batch).pow(2).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
