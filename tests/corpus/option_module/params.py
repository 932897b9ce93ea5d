# Mimics the PATTERN of graph-network projects whose options module parses the command line when
# it is imported (`args = parser.parse_args()` at its top level) and the training script does
# `from params import args`; no file reads the option's value, so passing
# another one changes nothing (SL113).
# Independent re-creation for seedlint's test corpus, not its code.
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=5)
parser.add_argument("--lr", type=float, default=0.01)
parser.add_argument("--seed", type=int, default=15)
args = parser.parse_args()
