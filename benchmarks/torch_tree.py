"""seedlint on torch's installed source tree, side by side with ruff, as pre-commit and CI use them.

    python benchmarks/torch_tree.py [--rounds 3] [--jobs N] [--scaling]

It copies the `.py` files of the installed torch package into a temporary directory (a tree inside
a git-ignored virtualenv would be skipped, and editing a file must not touch the installed torch),
then runs the runs a user meets (`common.user_runs`), each a fresh process, round after round (these
machines are noisy), and prints the median wall time, CPU time and peak memory of each, and its
ratio to ruff:

- cold: the first run over `torch`, from an empty cache;
- run 2: the second, nothing changed (the first commit's pre-commit hook); run 3: a later one;
- one file: `seedlint check torch/utils/data/dataloader.py` from the tree's root, the first time
  after the runs over the tree, then again (what a pre-commit hook does for a one-file commit);
- one file edited: a line added to that file, then the tree checked;
- ruff: `ruff check --select ALL --no-cache` on the same tree, the reference (skipped when ruff is
  not installed: `pip install ruff`).

It then checks that the cache changes no finding (the tree's, the one file's).

With `--baseline DIR` (another checkout of seedlint, such as `git worktree add DIR HEAD~1`), each
seedlint case is also run with that checkout's code (its own cache), alternating with this one's in
every round: the two side by side in one run, as a change must be measured.

With `--scaling`, the peak memory of a cold run over torch's `nn` and `utils/data` packages, once
and four times over (four copies side by side, whose `torch.*` imports all resolve to the first
copy): what the linted files themselves cost should not accumulate as their number grows.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from common import (
    arguments,
    copy_python_files,
    environments,
    measure,
    package_source,
    seedlint_command,
    side_by_side,
)

EDITED = Path("torch/utils/data/dataloader.py")


def main() -> None:
    parser = arguments(__doc__, rounds=3)
    parser.add_argument(
        "--scaling", action="store_true", help="also peak memory at 1x and 4x a torch subset"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="seedlint-bench-") as temporary:
        root = Path(temporary) / "tree"
        files = copy_python_files(package_source("torch"), root)
        lines = sum(len(path.read_bytes().splitlines()) for path in root.rglob("*.py"))
        envs = environments(Path(temporary) / "cache", args.baseline)
        seedlint = seedlint_command(args.jobs)

        def edit() -> None:
            with (root / EDITED).open("a") as handle:
                handle.write(f"# edited {time.time_ns()}\n")

        side_by_side(
            f"torch's source tree: {files} files, {lines:,} lines",
            root,
            ["torch"],
            EDITED,
            envs,
            seedlint,
            args.rounds,
            edit=edit,
        )
        if args.scaling:
            scaling(Path(temporary), envs[""], seedlint)


def scaling(temporary: Path, env: dict[str, str], seedlint: list[str]) -> None:
    """Peak memory of a cold run over a torch subset, once and four times over."""
    subset = [Path("torch/nn"), Path("torch/utils/data")]
    print(f"{'corpus':<20} {'files':>9} {'wall':>9} {'peak memory':>12}")
    for copies in (1, 4):
        corpus = temporary / f"scaling-{copies}"
        for copy in range(copies):
            for part in subset:
                shutil.copytree(temporary / "tree" / part, corpus / f"copy{copy}" / part)
        count = sum(1 for _ in corpus.rglob("*.py"))
        wall, _, peak, _ = measure(seedlint + ["--no-cache", "."], corpus, env)
        print(f"{f'{copies}x nn + utils/data':<20} {count:>9} {wall:8.2f}s {peak:10.0f}MB")


if __name__ == "__main__":
    main()
