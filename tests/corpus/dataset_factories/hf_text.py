# Mimics the PATTERN of Chinese LLaMA / Alpaca pretraining scripts (`path.glob("*.txt")` names, one file kept in debug mode, each loaded with `load_dataset` and concatenated in listing order). Independent re-creation for seedlint's test corpus, not its code.

from pathlib import Path

from datasets import concatenate_datasets, load_dataset


def build(dataset_dir, debug=False):
    path = Path(dataset_dir)
    files = [file.name for file in path.glob("*.txt")]
    if debug:
        files = [files[0]]
    lm_datasets = []
    for idx, file in enumerate(files):
        raw = load_dataset("text", data_files=str(path / file))
        if idx == 0:
            lm_datasets = raw["train"]
        else:
            lm_datasets = concatenate_datasets([lm_datasets, raw["train"]])
    return lm_datasets
