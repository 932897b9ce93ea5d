# Mimics the PATTERN of LLM pretraining scripts that hand an unsorted `glob` of shard files to a dataset class of another project module. Independent re-creation for seedlint's test corpus, not its code.

import glob

from torch.utils.data import DataLoader

from packed import PackedDataset


def create_dataloader(data_dir, batch_size):
    filenames = glob.glob(f"{data_dir}/train*")
    return DataLoader(PackedDataset(filenames), batch_size=batch_size)
