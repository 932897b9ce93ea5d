# Mimics the PATTERN of adapter libraries (the package re-exports its configuration class). Independent re-creation for seedlint's test corpus, not its code.

from adapters.config import AdapterConfig
