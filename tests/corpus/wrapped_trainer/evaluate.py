# Mimics the PATTERN of the project's evaluation script: it scores saved weights through the
# wrapper module's `score`, which never trains. Nothing to report. Independent re-creation for
# seedlint's test corpus, not its code.
import sys

import train

print(train.score(sys.argv[1]))
