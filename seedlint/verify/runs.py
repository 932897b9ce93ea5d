"""Run a program traced, in a fresh process with a timeout, and compare the draws of two runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

_STDERR_TAIL = 2000


@dataclass
class Run:
    """One traced run: its draws in order, and how it ended."""

    draws: list[dict]
    returncode: int | None  # None: killed at the timeout
    stderr: str
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def crashed(self) -> bool:
        return self.returncode not in (0, None)


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


def run_traced(plan: RunPlan) -> Run:
    """Run the plan once in a fresh interpreter; on timeout the whole process group is killed."""
    with tempfile.TemporaryDirectory(prefix="seedlint-verify-") as directory:
        trace, sources = Path(directory, "trace.jsonl"), Path(directory, "sources.json")
        sources.write_text(json.dumps(plan.sources), encoding="utf-8")
        command = [sys.executable, "-m", "seedlint.verify.harness", str(trace), str(sources), str(plan.script),
                   *plan.args]
        start = time.monotonic()
        process = subprocess.Popen(command, cwd=plan.cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=plan.timeout)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            _kill_group(process)
            _, stderr = process.communicate()
            returncode = None
        except BaseException:  # Ctrl-C: leave no process behind
            _kill_group(process)
            process.wait()
            raise
        seconds = time.monotonic() - start
        draws = _read_trace(trace)
    return Run(draws, returncode, stderr.decode("utf-8", "replace")[-_STDERR_TAIL:], seconds)


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


def first_divergence(first: Run, second: Run) -> Divergence | None:
    """The first draw (over the prefix both runs reached) whose op, generator or values differ."""
    for index, (a, b) in enumerate(zip(first.draws, second.draws)):
        if (a["op"], a["generator"], a["hash"]) != (b["op"], b["generator"], b["hash"]):
            return Divergence(index, a, b)
    return None
