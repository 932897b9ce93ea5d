# Mimics the PATTERN of a packed-token dataset module (an `IterableDataset` reading its files in the order given). Independent re-creation for seedlint's test corpus, not its code.

from torch.utils.data import IterableDataset


class PackedDataset(IterableDataset):
    def __init__(self, filenames):
        self.filenames = filenames

    def __iter__(self):
        for name in self.filenames:
            yield name
