# Mimics the k-fold cross-validation PATTERN of small PyTorch projects that borrow scikit-learn's
# splitters (`KFold(n_splits=5, shuffle=True)` over a tensor dataset, a `Subset` per fold, a model
# re-created per fold after `torch.manual_seed`). Independent re-creation for seedlint's test corpus,
# not its code.
import torch
from sklearn.model_selection import KFold, StratifiedKFold
from torch import nn
from torch.utils.data import DataLoader, Subset, TensorDataset

SEED = 0


def make_data(n=100):
    generator = torch.Generator().manual_seed(SEED)
    features = torch.randn(n, 8, generator=generator)
    labels = (features.sum(dim=1) > 0).long()
    return TensorDataset(features, labels)


def train_fold(dataset, train_ids):
    model = nn.Linear(8, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for features, labels in DataLoader(Subset(dataset, train_ids), batch_size=10):
        loss = nn.functional.cross_entropy(model(features), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model


def main():
    torch.manual_seed(SEED)
    dataset = make_data()
    folds = KFold(n_splits=5, shuffle=True)
    for fold, (train_ids, test_ids) in enumerate(folds.split(range(len(dataset)))):
        train_fold(dataset, train_ids.tolist())
    # The reproducible form: the splitter carries its seed.
    stratified = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    labels = dataset.tensors[1].tolist()
    for train_ids, test_ids in stratified.split(range(len(dataset)), labels):
        train_fold(dataset, train_ids.tolist())


if __name__ == "__main__":
    main()
