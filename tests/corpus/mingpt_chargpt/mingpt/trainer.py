# Mimics the PATTERN of karpathy/minGPT mingpt/trainer.py (an endless RandomSampler with replacement
# and no generator, drawing from the global generator the calling script seeded). Independent
# re-creation for seedlint's test corpus, not its code.
import torch
from torch.utils.data.dataloader import DataLoader


class Trainer:
    def __init__(self, model, train_dataset, batch_size=64, num_workers=4, max_iters=1000):
        self.model = model
        self.train_dataset = train_dataset
        self.batch_size = batch_size
        self.num_workers = num_workers
        self.max_iters = max_iters

    def run(self):
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=5e-4)
        train_loader = DataLoader(
            self.train_dataset,
            sampler=torch.utils.data.RandomSampler(self.train_dataset, replacement=True, num_samples=int(1e10)),
            shuffle=False,
            pin_memory=True,
            batch_size=self.batch_size,
            num_workers=self.num_workers,
        )
        self.model.train()
        data_iter = iter(train_loader)
        for _ in range(self.max_iters):
            x, y = next(data_iter)
            logits = self.model(x)
            loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
