"""seedlint on a monorepo: many project roots side by side, as CI and pre-commit run it there.

    python benchmarks/monorepo.py [--rounds 2] [--jobs N] [--baseline DIR]

It builds the tree from sources already on the machine: every package installed beside torch (this
virtualenv's site-packages, torch included), each copied as a project of its own
(`tree/<name>/<name>/..`, so each is an import root), then runs, side by side in one run, the runs
a user meets (`common.user_runs`: the first run over the tree from an empty cache, the second and a
third; `seedlint check torch/torch/utils/data/dataloader.py` from the root the first time after
them, and again) and ruff (`ruff check --select ALL --no-cache .` on the same files, the
reference).

Each row gives the median wall time, CPU time, and peak memory: of the largest process, and (on
Linux) of all the run's processes together, sampled every 50 ms. It also checks that the cache
changes no finding (the tree's, the one file's). `--baseline DIR` runs each seedlint case with
another checkout's code too (as in torch_tree.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from common import (
    arguments,
    copy_python_files,
    environments,
    package_source,
    seedlint_command,
    side_by_side,
)

ONE_FILE = Path("torch/torch/utils/data/dataloader.py")


def build(tree: Path) -> tuple[int, int]:
    """One project per package installed beside torch; (projects, files)."""
    site = package_source("torch").parent
    projects = files = 0
    for entry in sorted(site.iterdir()):
        if entry.is_dir() and (entry / "__init__.py").is_file():
            copied = copy_python_files(entry, tree / entry.name)
            projects, files = projects + (copied > 0), files + copied
    return projects, files


def main() -> None:
    parser = arguments(__doc__, rounds=2)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="seedlint-monorepo-") as temporary:
        tree = Path(temporary) / "tree"
        projects, files = build(tree)
        lines = sum(len(path.read_bytes().splitlines()) for path in tree.rglob("*.py"))
        envs = environments(Path(temporary) / "cache", args.baseline)
        seedlint = seedlint_command(args.jobs)
        side_by_side(
            f"monorepo: {projects} projects (import roots), {files:,} files, {lines:,} lines",
            tree,
            ["."],
            ONE_FILE,
            envs,
            seedlint,
            args.rounds,
        )


if __name__ == "__main__":
    main()
