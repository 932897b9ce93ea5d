# Mimics the PATTERN of the project's entry script: it parses its options and calls the wrapper,
# seeding nothing (SL112: the update is five calls down). Independent re-creation for seedlint's
# test corpus, not its code.
import argparse

import train

parser = argparse.ArgumentParser()
parser.add_argument("--wasserstein", action="store_true")
args = parser.parse_args()
model = train.run(wasserstein=args.wasserstein)
