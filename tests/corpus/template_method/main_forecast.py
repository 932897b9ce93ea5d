# Mimics the PATTERN of time-series forecasting entry scripts (an experiment class built and trained, nothing seeded). Independent re-creation for seedlint's test corpus, not its code.

import argparse

from exp.exp_forecast import Exp_Forecast

parser = argparse.ArgumentParser()
parser.add_argument("--d_model", type=int, default=512)
parser.add_argument("--use_gpu", action="store_true")
args = parser.parse_args()

Exp = Exp_Forecast
exp = Exp(args)  # Exp_Basic.__init__ builds the model through the subclass's _build_model
exp.train("forecast")
