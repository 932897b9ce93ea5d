# Mimics the PATTERN of the package that replaced the module beside it: it exports the transformer its training script imports. Independent re-creation for seedlint's test corpus, not its code.

from .transformer import Transformer

__all__ = ["Transformer"]
