# Mimics the training and evaluation loops PATTERN of the older Hugging Face example scripts (epoch_iterator = tqdm(train_dataloader); evaluate() over a DistributedSampler per checkpoint). Independent re-creation for seedlint's test corpus, not its code.

import argparse

import torch
from torch.utils.data import DataLoader, RandomSampler, SequentialSampler, TensorDataset
from torch.utils.data.distributed import DistributedSampler
from tqdm import tqdm, trange


def evaluate(args, model, dataset):
    sampler = SequentialSampler(dataset) if args.local_rank == -1 else DistributedSampler(dataset)
    loader = DataLoader(dataset, sampler=sampler, batch_size=8)
    total = 0.0
    for batch in tqdm(loader, desc="Evaluating"):
        model.eval()
        with torch.no_grad():
            total += model(batch[0]).sum().item()
    return total


def train(args, model, dataset):
    sampler = RandomSampler(dataset) if args.local_rank == -1 else DistributedSampler(dataset)
    train_dataloader = DataLoader(dataset, sampler=sampler, batch_size=8)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in trange(args.epochs, desc="Epoch"):
        epoch_iterator = tqdm(train_dataloader, desc="Iteration")
        for step, batch in enumerate(epoch_iterator):
            model.train()
            loss = model(batch[0]).pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(42)
    dataset = TensorDataset(torch.randn(64, 4))
    model = torch.nn.Linear(4, 1)
    train(args, model, dataset)
    for checkpoint in ["step-100", "step-200"]:
        print(checkpoint, evaluate(args, model, dataset))


if __name__ == "__main__":
    main()
