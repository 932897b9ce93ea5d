"""Start the traced process: `python .../seedlint/verify/launch.py TRACE CONFIG SCRIPT [ARGS...]`.

Started by its path, never as `-m seedlint...`: the harness then runs from the seedlint package this
file belongs to (the one `seedlint verify` runs from), not from a `seedlint/` directory that the
working directory happens to hold. Spawned children run this file too (`runpy.run_path`) before
importing the harness.
"""

import importlib.util
import os
import sys

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def import_own_seedlint() -> None:
    """Import `seedlint` from this file's package, whatever `sys.path` holds (once per process)."""
    if "seedlint" in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(
        "seedlint", os.path.join(PACKAGE, "__init__.py"), submodule_search_locations=[PACKAGE]
    )
    package = importlib.util.module_from_spec(spec)
    sys.modules["seedlint"] = package
    spec.loader.exec_module(package)


import_own_seedlint()

if __name__ == "__main__":
    # as under `python -m`: the working directory, not this file's, comes first
    sys.path[0] = os.getcwd()
    from seedlint.verify.harness import main

    main(sys.argv[1:])
