"""Run a program traced, in a fresh process with a timeout, and compare the draws of two runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

_STDERR_TAIL = 8000


@dataclass
class Run:
    """One traced run: its draws in order, and how it ended."""

    draws: list[dict]
    returncode: int | None  # None: killed at the timeout
    stderr: str
    seconds: float
    children: list[list[dict]] = field(default_factory=list)  # the records of each child process (workers)
    stdout: str = ""  # what the program printed (its tail)
    ranks: list[Run] = field(default_factory=list)  # under torchrun: each rank's run (this one is rank 0's)

    @property
    def random_draws(self) -> list[dict]:
        return _random_draws(self.draws)

    def children_draws(self) -> dict[int | str, list[dict]]:
        """The random draws of each child process, by its label (DataLoader worker id, or process name)."""
        return {draws[0]["worker"]: draws for records in self.children if (draws := _random_draws(records))}

    def records(self, kind: str) -> list[dict]:
        return [record for record in self.draws if record.get("kind") == kind]

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def loaded(self) -> set[str]:
        """The user's files the program loaded (absolute paths)."""
        return {file for record in self.records("modules") for file in record["files"]}

    @property
    def completed(self) -> bool:
        """Whether the program's code ran to its end (the harness's `end` record)."""
        return bool(self.records("end"))

    @property
    def crashed(self) -> bool:
        """The process failed before the program's code ended (a failure in torch's teardown at exit,
        which sometimes aborts after `destroy_process_group`, is not the program's)."""
        return self.returncode not in (0, None) and not self.completed


def _random_draws(records: list[dict]) -> list[dict]:
    return [record for record in records if record.get("kind", "draw") == "draw"]


@dataclass
class Divergence:
    """Where two runs part ways: the index of the first differing draw, and that draw in each run."""

    index: int
    first: dict
    second: dict


@dataclass
class RunPlan:
    """What to run: a script (as `__main__`), its arguments, the sources to serve instead of files."""

    script: Path
    args: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    timeout: float = 60.0
    cwd: Path = field(default_factory=Path.cwd)
    seed_offset: int = 0  # added to every seed the program sets (the seed-sensitivity probe)
    nproc_per_node: int = 0  # > 0: run under torchrun with that many processes, each rank traced
    environment: dict[str, str] = field(default_factory=dict)  # set on top of ours (`PYTHONHASHSEED`)
    progress: Callable[[str], None] | None = None  # told, every second, how long the run has taken


def run_traced(plan: RunPlan) -> Run:
    """Run the plan once in a fresh interpreter; on timeout the whole process group is killed."""
    with tempfile.TemporaryDirectory(prefix="seedlint-verify-") as directory:
        trace, config = Path(directory, "trace.jsonl"), Path(directory, "config.json")
        config.write_text(json.dumps({"sources": plan.sources, "seed_offset": plan.seed_offset}), encoding="utf-8")
        launcher = [sys.executable]
        if plan.nproc_per_node:
            launcher += ["-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={plan.nproc_per_node}"]
        command = [*launcher, "-m", "seedlint.verify.harness", str(trace), str(config), str(plan.script), *plan.args]
        start = time.monotonic()
        process = subprocess.Popen(command, cwd=plan.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True, env={**os.environ, **plan.environment})
        try:
            with _killed_on_interrupt(process):
                stdout, stderr, returncode = _wait(process, start, plan)
        except BaseException:  # Ctrl-C, or a failure of ours: leave no process behind
            _kill_group(process)
            process.wait()
            raise
        seconds = time.monotonic() - start
        stderr_tail = stderr.decode("utf-8", "replace")[-_STDERR_TAIL:]
        ranks = [_read_run(path, returncode, stderr_tail, seconds)
                 for path in sorted(trace.parent.glob("trace.rank*.jsonl"), key=_rank_of)]
        run = ranks[0] if ranks else _read_run(trace, returncode, stderr_tail, seconds)
        run.ranks = ranks
        run.stdout = stdout.decode("utf-8", "replace")[-_STDERR_TAIL:]
    return run


def _rank_of(path: Path) -> int:
    return int(path.name.split(".")[1].removeprefix("rank"))


def _read_run(trace: Path, returncode: int | None, stderr: str, seconds: float) -> Run:
    """A run's records: the main process's trace, and each child process's (`<trace>.<pid>`)."""
    children = [_read_trace(path) for path in sorted(trace.parent.glob(f"{trace.name}.*"))]
    return Run(_read_trace(trace), returncode, stderr, seconds, children)


def _wait(process: subprocess.Popen, start: float, plan: RunPlan) -> tuple[bytes, bytes, int | None]:
    """Wait for the run, reporting progress every second; at the timeout kill its process group."""
    deadline = start + plan.timeout
    while True:
        left = deadline - time.monotonic()
        try:
            stdout, stderr = process.communicate(timeout=max(min(1.0, left), 0.01))
            return stdout, stderr, process.returncode
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                _kill_group(process)
                stdout, stderr = process.communicate()
                return stdout, stderr, None
            if plan.progress is not None:
                plan.progress(f"{plan.script.name}: {time.monotonic() - start:.0f} s")


@contextmanager
def _killed_on_interrupt(process: subprocess.Popen) -> Iterator[None]:
    """While the run lasts, Ctrl-C kills its process group at once (in the signal handler, wherever
    the main thread is), then interrupts seedlint."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        _kill_group(process)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _read_trace(path: Path) -> list[dict]:
    if not path.exists():
        return []
    draws = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            draws.append(json.loads(line))
        except json.JSONDecodeError:  # the line being written when the run was killed
            break
    return draws


def first_divergence(first: list[dict], second: list[dict]) -> Divergence | None:
    """The first draw (over the prefix both runs reached) whose op, generator or values differ."""
    for index, (a, b) in enumerate(zip(first, second)):
        if (a["op"], a["generator"], a["hash"]) != (b["op"], b["generator"], b["hash"]):
            return Divergence(index, a, b)
    return None
