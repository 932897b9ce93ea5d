# Mimics the PATTERN of diffusion codebases' packages. Independent re-creation for seedlint's test corpus, not its code.
