# Mimics the PATTERN of experiment entry scripts (a model picked from a table by a key). Independent re-creation for seedlint's test corpus, not its code.

import argparse

from exp.exp_pretrained import Exp_Pretrained

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="saved")
parser.add_argument("--use_gpu", action="store_true")
args = parser.parse_args()

Exp_Pretrained(args).train("pretrained")
