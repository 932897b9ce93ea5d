"""seedlint on torch's installed source tree, side by side with ruff, as pre-commit and CI use them.

    python benchmarks/torch_tree.py [--rounds 3] [--jobs N] [--scaling]

It copies the `.py` files of the installed torch package into a temporary directory (a tree inside
a git-ignored virtualenv would be skipped, and editing a file must not touch the installed torch),
then runs each case as a fresh process, alternating the cases round after round (these machines are
noisy), and prints the median wall time, CPU time and peak memory of each, and its ratio to ruff:

- seedlint cold: `--no-cache`, everything analysed;
- seedlint warm: the cache filled by an earlier run, nothing changed;
- seedlint, one file edited: a line added to `torch/utils/data/dataloader.py` before each run;
- one file: `seedlint check torch/utils/data/dataloader.py` from the tree's root, cache warm
  (what a pre-commit hook does for a one-file commit);
- ruff: `ruff check --select ALL --no-cache` on the same tree, the reference (skipped when ruff is
  not installed: `pip install ruff`).

With `--baseline DIR` (another checkout of seedlint, such as `git worktree add DIR HEAD~1`), each
seedlint case is also run with that checkout's code (its own cache), alternating with this one's in
every round: the two side by side in one run, as a change must be measured.

With `--scaling`, the peak memory of a cold run over torch's `nn` and `utils/data` packages, once
and four times over (four copies side by side, whose `torch.*` imports all resolve to the first
copy): what the linted files themselves cost should not accumulate as their number grows.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from common import (
    copy_python_files,
    environments,
    measure,
    package_source,
    print_table,
    run_rounds,
    seedlint_command,
)

EDITED = Path("torch/utils/data/dataloader.py")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="passed to seedlint (default: its own)")
    parser.add_argument(
        "--scaling", action="store_true", help="also peak memory at 1x and 4x a torch subset"
    )
    parser.add_argument("--baseline", type=Path, help="another seedlint checkout, run alternately")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="seedlint-bench-") as temporary:
        root = Path(temporary) / "tree"
        files = copy_python_files(package_source("torch"), root)
        lines = sum(len(path.read_bytes().splitlines()) for path in root.rglob("*.py"))
        envs = environments(Path(temporary) / "cache", args.baseline)
        seedlint = seedlint_command(args.jobs)
        ruff = shutil.which("ruff")

        def edit() -> None:
            with (root / EDITED).open("a") as handle:
                handle.write(f"# edited {time.time_ns()}\n")

        cases = {}
        for label, case_env in envs.items():
            cases[f"{label}seedlint cold"] = (seedlint + ["--no-cache", "torch"], None, case_env)
            cases[f"{label}seedlint warm"] = (seedlint + ["torch"], None, case_env)
            cases[f"{label}one file edited"] = (seedlint + ["torch"], edit, case_env)
            cases[f"{label}one file, warm"] = (seedlint + [str(EDITED)], None, case_env)
        if ruff:
            cases["ruff --select ALL"] = (
                [ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", "torch"],
                None,
                envs[""],
            )
        for case_env in envs.values():  # fill the caches
            subprocess.run(seedlint + ["torch"], cwd=root, env=case_env, stdout=subprocess.DEVNULL)
        results = run_rounds(cases, root, args.rounds)
        print(
            f"torch's source tree: {files} files, {lines:,} lines; {os.cpu_count()} CPUs; median "
            f"of {args.rounds}"
        )
        print_table(results, "ruff --select ALL" if ruff else None)
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
