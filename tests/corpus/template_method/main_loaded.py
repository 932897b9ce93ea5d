# Mimics the PATTERN of fine-tuning entry scripts (a loaded model trained). Independent re-creation for seedlint's test corpus, not its code.

import argparse

from exp.exp_loaded import Exp_Loaded

parser = argparse.ArgumentParser()
parser.add_argument("--model_path")
parser.add_argument("--use_gpu", action="store_true")
args = parser.parse_args()

exp = Exp_Loaded(args)  # the subclass's _build_model loads a scripted model: nothing drawn
exp.train("finetune")
