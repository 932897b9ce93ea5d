"""What the tree benchmarks share: copying a package's sources, the runs a user meets (`user_runs`),
running the cases round after round (each a fresh process, the cases alternated: these machines are
noisy), the table of medians, and the check that the cache changes no finding."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

# A case: the command, what to do before each run of it (or None), its environment.
Case = tuple[list[str], Callable[[], None] | None, dict[str, str]]
# Each case's runs: (wall seconds, CPU seconds, peak memory in MB: largest process, all together).
Results = dict[str, list[tuple[float, float, float, float]]]


def arguments(description: str, rounds: int) -> argparse.ArgumentParser:
    """The options every tree benchmark takes: `--rounds`, `--jobs` and `--baseline`."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--jobs", type=int, help="passed to seedlint (default: its own)")
    parser.add_argument("--baseline", type=Path, help="another seedlint checkout, run alternately")
    return parser


def package_source(name: str) -> Path:
    """The directory of an installed package."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"{name} is not installed (for torch: pip install torch==2.13.0)")
    return Path(spec.submodule_search_locations[0])


def copy_python_files(source: Path, destination: Path) -> int:
    """Copy the `.py` files under `source` to `destination/<source's name>/..`; how many."""
    count = 0
    for file in source.rglob("*.py"):
        target = destination / file.relative_to(source.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)
        count += 1
    return count


def seedlint_command(jobs: int | None) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "seedlint",
        "check",
        "--isolated",
        "--output-format",
        "concise",
    ]
    return command + ["--jobs", str(jobs)] if jobs else command


def user_runs(
    label: str,
    env: dict[str, str],
    seedlint: list[str],
    tree: list[str],
    one_file: Path,
    edit: Callable[[], None] | None = None,
) -> dict[str, Case]:
    """The runs a user meets, in the order of one round (each round starts from an empty cache):
    the first run over the tree; the second, nothing changed (the first commit's pre-commit hook);
    a third; one file checked from the root, the first time after the tree runs, and again; with
    `edit`, the tree checked again after it edits one file."""
    cache = Path(env["SEEDLINT_CACHE_DIR"])
    cases: dict[str, Case] = {
        f"{label}cold (empty cache)": (
            seedlint + tree,
            lambda: shutil.rmtree(cache, ignore_errors=True),
            env,
        ),
        f"{label}run 2 (first warm)": (seedlint + tree, None, env),
        f"{label}run 3 (warm)": (seedlint + tree, None, env),
        f"{label}one file, first after tree": (seedlint + [str(one_file)], None, env),
        f"{label}one file, again": (seedlint + [str(one_file)], None, env),
    }
    if edit is not None:
        cases[f"{label}one file edited, tree"] = (seedlint + tree, edit, env)
    return cases


def findings(command: list[str], cwd: Path, env: dict[str, str]) -> list[tuple]:
    """(file, row, code, message) of every finding of a run."""
    result = subprocess.run(
        [*command, "--output-format", "json"], cwd=cwd, env=env, capture_output=True
    )
    return sorted(
        (item["filename"], item["location"]["row"], item["code"], item["message"])
        for item in json.loads(result.stdout)
    )


def cache_changes_nothing(
    seedlint: list[str], tree: list[str], one_file: Path, cwd: Path, env: dict[str, str]
) -> bool:
    """Whether the findings of the tree and of the one file are the same with the cache (as the
    rounds left it: warm) and without it."""
    return all(
        findings(seedlint + paths + ["--no-cache"], cwd, env)
        == findings(seedlint + paths, cwd, env)
        for paths in (tree, [str(one_file)])
    )


def side_by_side(
    title: str,
    root: Path,
    tree: list[str],
    one_file: Path,
    envs: dict[str, dict[str, str]],
    seedlint: list[str],
    rounds: int,
    ruff_options: tuple[str, ...] = (),
    edit: Callable[[], None] | None = None,
) -> None:
    """Each checkout's runs a user meets (`user_runs`) and ruff's (`ruff check --select ALL
    --no-cache` with `ruff_options`, the reference, when ruff is installed) in `root`, round
    after round; the table under `title`, then whether the cache changes any finding."""
    ruff = shutil.which("ruff")
    cases = {}
    for label, env in envs.items():
        cases.update(user_runs(label, env, seedlint, tree, one_file, edit))
    if ruff:
        cases["ruff --select ALL"] = (
            [ruff, "check", *ruff_options, "--select", "ALL", "--no-cache", "--exit-zero", *tree],
            None,
            envs[""],
        )
    results = run_rounds(cases, root, rounds)
    print(f"{title}; {os.cpu_count()} CPUs; median of {rounds}")
    print_table(results, "ruff --select ALL" if ruff else None)
    for label, env in envs.items():
        same = cache_changes_nothing(seedlint, tree, one_file, root, env)
        print(f"{label or 'this '}checkout: findings identical with and without the cache: {same}")


def environments(cache: Path, baseline: Path | None) -> dict[str, dict[str, str]]:
    """The environment of this checkout's cases (label ""), and of the baseline checkout's
    ("baseline "), each with a cache of its own."""
    env = {**os.environ, "SEEDLINT_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    found = {"": env}
    if baseline is not None:
        path = os.pathsep.join([str(baseline.resolve()), os.environ.get("PYTHONPATH", "")])
        found["baseline "] = {**env, "PYTHONPATH": path, "SEEDLINT_CACHE_DIR": f"{cache}-baseline"}
    return found


def measure(
    command: list[str], cwd: Path, env: dict[str, str]
) -> tuple[float, float, float, float]:
    """(wall seconds, CPU seconds, peak memory in MB of the largest process, and of all the run's
    processes together: sampled every 50 ms, Linux only, else 0) of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    total = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        total = max(total, _tree_memory(process.pid))
        time.sleep(0.05)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed with exit code {process.returncode}")
    peak = usage.ru_maxrss / (1024 if sys.platform != "darwin" else 1024 * 1024)
    return wall, usage.ru_utime + usage.ru_stime, peak, total / (1024 * 1024)


def _tree_memory(root: int) -> int:
    """The resident bytes of a process and its descendants (0 without /proc)."""
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else ():
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        tree.update(children)
        frontier += children
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total


def run_rounds(cases: dict[str, Case], cwd: Path, rounds: int) -> Results:
    """Each case measured once per round, the cases alternated within each round."""
    results: Results = {name: [] for name in cases}
    for round_number in range(rounds):
        for name, (command, before, case_env) in cases.items():
            if before is not None:
                before()
            results[name].append(measure(command, cwd, case_env))
        print(f"round {round_number + 1} of {rounds} done", file=sys.stderr)
    return results


def print_table(results: Results, reference: str | None) -> None:
    """The median wall time, CPU time and peak memory of each case, and its wall time's ratio to
    the `reference` case's."""
    print(
        f"{'case':<34} {'wall':>9} {'CPU':>9} {'peak memory':>12} {'all processes':>14} "
        f"{'wall / ruff':>12}"
    )
    base = statistics.median(r[0] for r in results[reference]) if reference else None
    for name, runs in results.items():
        wall, cpu, peak, total = (statistics.median(values) for values in zip(*runs))
        ratio = f"{wall / base:.2f}" if base else "-"
        print(f"{name:<34} {wall:8.2f}s {cpu:8.2f}s {peak:10.0f}MB {total:12.0f}MB {ratio:>12}")
    if reference is None:
        print("ruff is not installed (pip install ruff): no reference column")
