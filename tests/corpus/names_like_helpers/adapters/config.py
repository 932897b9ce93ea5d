# Mimics the PATTERN of adapter libraries (a configuration class inheriting `from_pretrained` from a mixin: it reads a file and draws nothing). Independent re-creation for seedlint's test corpus, not its code.

import json


class ConfigMixin:
    @classmethod
    def from_pretrained(cls, path):
        with open(path) as handle:
            return cls(**json.load(handle))


class AdapterConfig(ConfigMixin):
    def __init__(self, rank=8):
        self.rank = rank
