# Mimics the PATTERN of diffusion codebases (a sampling module using another module's schedule). Independent re-creation for seedlint's test corpus, not its code.

from schedule import Schedule


def alphas():
    return Schedule().alpha
