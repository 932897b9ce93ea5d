# Mimics the PATTERN of dataset-specific subclasses that only pass their configuration to the base model's constructor. Independent re-creation for seedlint's test corpus, not its code.

from models.base import GATModel, PretrainedModel


class PlanetoidGAT(GATModel):
    def __init__(self, **config):
        super().__init__(**config)


class FinetunedModel(PretrainedModel):
    def __init__(self, path):
        super().__init__(path)
