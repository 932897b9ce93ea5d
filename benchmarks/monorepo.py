"""seedlint on a monorepo: many project roots side by side, as CI and pre-commit run it there.

    python benchmarks/monorepo.py [--rounds 2] [--jobs N] [--baseline DIR]

It builds the tree from sources already on the machine: every package installed beside torch (this
virtualenv's site-packages, torch included), each copied as a project of its own
(`tree/<name>/<name>/..`, so each is an import root), then runs, side by side in one run:

- seedlint cold: `--no-cache .` from the tree's root;
- seedlint warm: the cache filled by an earlier run, nothing changed;
- one file, warm: `seedlint check torch/torch/utils/data/dataloader.py` from the root, its cache
  entries made by an earlier run over it (the first such run after runs over the tree makes them:
  its import roots are not the tree's; that run's time is printed below the table);
- ruff: `ruff check --select ALL --no-cache .` on the same files, the reference.

Each row gives the median wall time, CPU time, and peak memory: of the largest process, and (on
Linux) of all the run's processes together, sampled every 50 ms. It also checks that the warm
run's findings are the cold run's. `--baseline DIR` runs each seedlint case with another checkout's
code too (as in torch_tree.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
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


def findings(command: list[str], cwd: Path, env: dict[str, str]) -> list[tuple]:
    result = subprocess.run(
        [*command, "--output-format", "json"], cwd=cwd, env=env, capture_output=True
    )
    return sorted(
        (item["filename"], item["location"]["row"], item["code"], item["message"])
        for item in json.loads(result.stdout)
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, help="passed to seedlint (default: its own)")
    parser.add_argument("--baseline", type=Path, help="another seedlint checkout, run alternately")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="seedlint-monorepo-") as temporary:
        tree = Path(temporary) / "tree"
        projects, files = build(tree)
        lines = sum(len(path.read_bytes().splitlines()) for path in tree.rglob("*.py"))
        envs = environments(Path(temporary) / "cache", args.baseline)
        seedlint = seedlint_command(args.jobs)
        ruff = shutil.which("ruff")
        cases = {}
        for label, env in envs.items():
            cases[f"{label}seedlint cold"] = (seedlint + ["--no-cache", "."], None, env)
            cases[f"{label}seedlint warm"] = (seedlint + ["."], None, env)
            cases[f"{label}one file, warm, from the root"] = (
                seedlint + [str(ONE_FILE)],
                None,
                env,
            )
        if ruff:
            cases["ruff --select ALL"] = (
                [ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", "."],
                None,
                envs[""],
            )
        same, first = {}, {}
        for label, env in envs.items():  # fill the caches; the warm findings are the cold ones
            cold = findings(seedlint + ["--no-cache", "."], tree, env)
            subprocess.run(seedlint + ["."], cwd=tree, env=env, stdout=subprocess.DEVNULL)
            same[label] = cold == findings(seedlint + ["."], tree, env)
            # the one file's own entries (its run has other import roots than the tree's)
            first[label] = measure(seedlint + [str(ONE_FILE)], tree, env)[0]
            one = seedlint + [str(ONE_FILE)]
            same[label] &= findings(one + ["--no-cache"], tree, env) == findings(one, tree, env)
        results = run_rounds(cases, tree, args.rounds)
        print(
            f"monorepo: {projects} projects (import roots), {files:,} files, {lines:,} lines; "
            f"{os.cpu_count()} CPUs; median of {args.rounds}"
        )
        print_table(results, "ruff --select ALL" if ruff else None)
        for label, identical in same.items():
            print(
                f"{label or 'this '}checkout: warm findings identical to cold (the tree's, the one "
                f"file's): {identical}; the first run over the one file after runs over the tree "
                f"(its entries made): {first[label]:.2f} s"
            )


if __name__ == "__main__":
    main()
