# Mimics the package of a U-Net model. Independent re-creation of the pattern.
