# Mimics the PATTERN of a linear-evaluation script that takes its train and validation sets from the helper and seeds nothing. Independent re-creation for seedlint's test corpus, not its code.

from data import get_datasets, make_loaders

train_set, val_set = get_datasets(20)
print(len(train_set), len(val_set))
train_loader, val_loader = make_loaders(train_set, 10)
