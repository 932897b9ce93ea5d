# Mimics the PATTERN of a collection folder that is also a package (it has this `__init__.py`);
# its script is still run as `python SGAN/main.py`. Independent re-creation for seedlint's test
# corpus, not its code.
