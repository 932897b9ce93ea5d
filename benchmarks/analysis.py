"""Side-by-side speed of `seedlint check` and the metadata-based approach its peers take.

    python benchmarks/analysis.py [PATHS...] [--rounds 3]

For the same files, in one process and alternating rounds (these machines are noisy), it times:

- seedlint: the full `check` run without the cache (discovery, project index, gates, parse once,
  every default rule);
- baseline: what a linter built on libcst's metadata pays before any rule runs: parse each file
  and resolve `QualifiedNameProvider` and `ParentNodeProvider` through a `MetadataWrapper`;
- parse only: `libcst.parse_module` of every file, the floor for any libcst-based linter.

It prints lines per second for each (median of the rounds) and the ratio seedlint/baseline.
Default PATHS: the programs under tests/corpus. Point it at a real tree, e.g. the installed
torch package's `nn` directory, for a larger sample.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, QualifiedNameProvider

from seedlint.runner import CheckOptions, Runner

CORPUS = Path(__file__).parent.parent / "tests" / "corpus"


def python_files(paths: list[Path]) -> list[Path]:
    found = []
    for path in paths:
        found.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return found


def seedlint_run(paths: list[Path]) -> Callable[[], None]:
    def run() -> None:
        Runner(CheckOptions(paths=paths, isolated=True, cache=False)).run()

    return run


def baseline_run(files: list[Path]) -> Callable[[], None]:
    texts = [file.read_text(encoding="utf-8", errors="replace") for file in files]

    def run() -> None:
        for text in texts:
            try:
                wrapper = MetadataWrapper(cst.parse_module(text))
            except cst.ParserSyntaxError:
                continue
            wrapper.resolve(QualifiedNameProvider)
            wrapper.resolve(ParentNodeProvider)

    return run


def parse_run(files: list[Path]) -> Callable[[], None]:
    texts = [file.read_text(encoding="utf-8", errors="replace") for file in files]

    def run() -> None:
        for text in texts:
            try:
                cst.parse_module(text)
            except cst.ParserSyntaxError:
                continue

    return run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path, default=[CORPUS])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    files = python_files(args.paths)
    lines = sum(len(file.read_bytes().splitlines()) for file in files)
    runs = {
        "seedlint": seedlint_run(args.paths),
        "baseline": baseline_run(files),
        "parse only": parse_run(files),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    print(f"{len(files)} files, {lines} lines, {args.rounds} rounds (median)")
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, seconds in medians.items():
        print(f"{name:>10}: {seconds:8.2f} s  {lines / seconds:10.0f} lines/s")
    print(f"seedlint is {medians['baseline'] / medians['seedlint']:.1f}x the baseline's speed")


if __name__ == "__main__":
    main()
