# Mimics the PATTERN of language-model pretraining scripts that stream their corpus: `transformers.set_seed`
# at start-up, then `load_dataset(..., streaming=True)` shuffled through a buffer. Buggy: `.shuffle(buffer_size=...)`
# without `seed=` on the streamed dataset takes its seed from OS entropy, so the sample order changes on every
# run although the script seeds everything. Look-alike: the validation stream shuffled with `seed=args.seed`.
# Independent re-creation for seedlint's test corpus, not its code.
import argparse

from datasets import load_dataset
from transformers import set_seed


def build_streams(args):
    train = load_dataset(args.corpus, split="train", streaming=True)
    train = train.shuffle(buffer_size=10_000)
    valid = load_dataset(args.corpus, split="validation", streaming=True)
    valid = valid.shuffle(buffer_size=1_000, seed=args.seed)
    return train, valid


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default="allenai/c4")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    set_seed(args.seed)
    train, valid = build_streams(args)
    for example in train.take(2):
        print(example["text"][:40])


if __name__ == "__main__":
    main()
