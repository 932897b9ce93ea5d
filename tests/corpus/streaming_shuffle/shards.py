# Mimics the PATTERN of webdataset training pipelines (image-text pretraining): `torch.manual_seed` at
# start-up, then `wds.WebDataset(urls).shuffle(1000)`. Buggy: webdataset seeds that buffer shuffle from the
# process id and the clock when given neither `seed=` nor `rng=`. Look-alike: the shard list shuffled by
# `wds.detshuffle` (seeded from `seed` and the epoch). Independent re-creation for seedlint's test corpus,
# not its code.
import torch
import webdataset as wds


def make_pipeline(urls, seed):
    torch.manual_seed(seed)
    pipeline = wds.DataPipeline(wds.SimpleShardList(urls), wds.detshuffle(seed=seed), wds.tarfile_to_samples())
    samples = wds.WebDataset(urls).shuffle(1000).decode("pil")
    return pipeline, samples


if __name__ == "__main__":
    make_pipeline(["shard-000.tar"], 7)
