"""seedlint: a linter for PyTorch reproducibility."""

__version__ = "0.1.0"
