# Mimics the PATTERN of experiment entry scripts (a runner built and trained in one line, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import argparse

from exp.exp_classify import Exp_Classify

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="mlp")
parser.add_argument("--use_gpu", action="store_true")
args = parser.parse_args()

Exp_Classify(args).train("classify")
