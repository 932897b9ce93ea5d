# Mimics the PATTERN of tabular deep-learning libraries' packages. Independent re-creation for seedlint's test corpus, not its code.
