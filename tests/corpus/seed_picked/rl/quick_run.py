# Mimics the PATTERN of quick experiment scripts (the launcher called without a seed). Independent re-creation for seedlint's test corpus, not its code.

from launcher import run_here
from sac import experiment

if __name__ == "__main__":
    run_here(experiment, {"lr": 1e-3, "steps": 10, "noise": 1.0})
