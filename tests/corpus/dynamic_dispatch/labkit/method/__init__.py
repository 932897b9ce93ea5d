# Mimics the PATTERN of a package re-exporting a class named like its module (`from .run import run`). Independent re-creation for seedlint's test corpus, not its code.

from .run import run
