# Mimics the PATTERN of segmentation model zoos (`get_model` asks a helper for the class picked by name from a dict literal, then builds it). Independent re-creation for seedlint's test corpus, not its code.

from models.frrn import frrn
from models.unet import unet


def get_model(model_dict, n_classes):
    name = model_dict["arch"]
    model = _get_model_instance(name)
    return model(n_classes)


def _get_model_instance(name):
    try:
        return {"frrnA": frrn, "unet": unet}[name]
    except KeyError:
        raise ValueError(f"Model {name} not available")
