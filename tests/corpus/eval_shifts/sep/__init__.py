# Mimics the PATTERN of source-separation packages. Independent re-creation for seedlint's test corpus, not its code.
