# Mimics the PATTERN of graph-classification experiment scripts (experiments run through functions of the script, which hand a model function to another module's cross-validation; nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import argparse

from train_eval import cross_validation

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=100)
args = parser.parse_args()


def get_model(name):
    return lambda dataset: None


def run_experiments(names):
    for name in names:
        cross_validation([], get_model(name), folds=10, epochs=args.epochs)


if __name__ == "__main__":
    run_experiments(["gin", "gcn"])
