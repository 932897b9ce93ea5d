# Mimics the PATTERN of experiment re-launchers (the launcher's keyword arguments unpickled and expanded with `**`: the seed travels inside them). Independent re-creation for seedlint's test corpus, not its code.

import pickle
import sys

from launcher import run_here
from sac import experiment

if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        saved = pickle.load(f)
    run_here(experiment, **saved["run_kwargs"])
