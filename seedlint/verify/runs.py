"""Run a program traced, in a fresh process with a timeout, and compare the draws of two runs.

A run is contained: its stdout and stderr are read as they come and only their first and last
`OUTPUT_KEPT` bytes kept, its temporary files go to a directory removed after it (and, for a
program that saves checkpoints, its working directory is a scratch one), its stdin is empty,
and when it ends, times out or is interrupted, every process it started is stopped: its
process group, and (on Linux) every process whose environment carries the run's marker, which
finds daemons that left the group.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

OUTPUT_KEPT = 32 * 1024  # bytes kept at each end of the program's stdout, and of its stderr
RUN_MARKER = "SEEDLINT_VERIFY_RUN"  # in the environment of a run's processes: the run's id
_LAUNCHER = str(Path(__file__).with_name("launch.py"))
_CHUNK = 1 << 20  # bytes read from a pipe at once
_POLL = 0.05  # seconds between checks whether the program has exited
_GRACE = 0.5  # seconds between SIGTERM and SIGKILL
_DRAIN = 1.0  # seconds to read what the pipes still hold once every process of the run is stopped
_KILL_WAIT = (
    5.0  # seconds of SIGKILL sweeps at most (a process may fork as it dies, or be slow to die)
)
T = TypeVar("T")
U = TypeVar("U")


@dataclass
class Run:
    """One traced run: its draws in order, and how it ended."""

    draws: list[dict]
    returncode: int | None  # None: killed at the timeout
    stderr: str
    seconds: float
    # the records of each child process (workers)
    children: list[list[dict]] = field(default_factory=list)
    stdout: str = ""  # what the program printed (its first and last OUTPUT_KEPT bytes)
    # streams cut to OUTPUT_KEPT: their size
    output_sizes: dict[str, int] = field(default_factory=dict)
    # under torchrun: each rank's run (this one is rank 0's)
    ranks: list[Run] = field(default_factory=list)
    # stopped by seedlint once it diverged from the run it is compared with (`Comparison`)
    stopped: bool = False

    @property
    def random_draws(self) -> list[dict]:
        return draws_in(self.draws)

    def children_draws(self) -> dict[int | str, list[dict]]:
        """The random draws of each child process, by its label (DataLoader worker id, or process
        name)."""
        return {
            draws[0]["worker"]: draws for records in self.children if (draws := draws_in(records))
        }

    def records(self, kind: str) -> list[dict]:
        return [record for record in self.draws if record.get("kind") == kind]

    @property
    def timed_out(self) -> bool:
        return self.returncode is None and not self.stopped

    @property
    def loaded(self) -> set[str]:
        """The user's files the program loaded (absolute paths)."""
        return {file for record in self.records("modules") for file in record["files"]}

    @property
    def completed(self) -> bool:
        """Whether the program's code ran to its end (the harness's `end` record)."""
        return bool(self.records("end"))

    @property
    def failure(self) -> dict | None:
        """The exception that stopped the program (its `type`, `message` and `where`: the
        innermost line of the user's files), as the harness recorded it."""
        return next(iter(self.records("error")), None)

    @property
    def crashed(self) -> bool:
        """The process failed before the program's code ended (a failure in torch's teardown at
        exit, which sometimes aborts after `destroy_process_group`, is not the program's)."""
        return self.returncode not in (0, None) and not self.completed


def draws_in(records: list[dict]) -> list[dict]:
    return [record for record in records if record.get("kind", "draw") == "draw"]


@dataclass
class Divergence:
    """Where two runs part ways: the index of the first differing draw, and that draw in each
    run."""

    index: int
    first: dict
    second: dict


@dataclass
class RunPlan:
    """What to run: a script (as `__main__`), its arguments, the sources to serve instead of
    files."""

    script: Path
    args: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    timeout: float = 60.0
    cwd: Path = field(default_factory=Path.cwd)
    seed_offset: int = 0  # added to every seed the program sets (the seed-sensitivity probe)
    nproc_per_node: int = 0  # > 0: run under torchrun with that many processes, each rank traced
    # set on top of ours (`PYTHONHASHSEED`)
    environment: dict[str, str] = field(default_factory=dict)
    progress: Callable[[str], None] | None = None  # told, every second, how long the run has taken
    # Checkpoints: run in a scratch working directory (`scratch_directory`) of its own, or in the
    # one given (an interrupted run and its resumption share one); stop after the first save.
    contained: bool = False
    scratch: Path | None = None
    interrupt: bool = False
    # runs side by side, compared as they go (`Comparison`), and this one's place among them
    comparison: Comparison | None = None
    place: int = 0


_FOLLOW = 0.2  # seconds between two reads of a compared run's trace


class Comparison:
    """The runs of one configuration side by side, their traces read as they grow: once another run
    has parted from the first in each watched family of generators (trace labels; None: any
    draw), every run stops there, as the rest cannot change the verdict. `told` gets a line when
    that happens; `status` is the live line: time, draws traced, divergence."""

    def __init__(
        self,
        families: list[tuple[str, ...] | None],
        label: str,
        runs: int = 2,
        told: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.families, self.label, self.told = families, label, told
        self.stop = threading.Event()
        # where they parted: the index among the draws of the family that parted last
        self.diverged_at: int | None = None
        self._lock = threading.Lock()
        self._start = time.monotonic()
        self._offsets: dict[int, int] = {}  # a run's place -> bytes of its trace read
        self._counts = dict.fromkeys(range(runs), 0)  # a run's place -> its draws read
        # (a run's place, a family) -> its draws of that family (what tells them apart)
        self._draws: dict[tuple[int, int], list[tuple]] = {}
        self._compared: dict[tuple[int, int], int] = {}  # draws compared with the first run's
        self._parted: dict[tuple[int, int], int] = {}  # where a run parted from the first

    def follow(self, place: int, trace: Path) -> None:
        """Read what the run at `place` traced since the last call, and compare."""
        with self._lock:
            offset = self._offsets.get(place, 0)
            try:
                with open(trace, "rb") as handle:
                    handle.seek(offset)
                    data = handle.read()
            except OSError:
                return
            end = data.rfind(b"\n") + 1  # a line being written is read next time
            self._offsets[place] = offset + end
            for line in data[:end].splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if record.get("kind", "draw") == "draw":
                    self._add(place, record)
            if self.diverged_at is None:
                self._compare()

    def _add(self, place: int, record: dict) -> None:
        self._counts[place] = self._counts.get(place, 0) + 1
        key = (record["op"], record["generator"], record["hash"])
        for number, family in enumerate(self.families):
            if family is None or record["generator"].startswith(family):
                self._draws.setdefault((place, number), []).append(key)

    def _compare(self) -> None:
        for place in self._counts.keys() - {0}:
            for number in range(len(self.families)):
                if (place, number) in self._parted:
                    continue
                first = self._draws.get((0, number), [])
                other = self._draws.get((place, number), [])
                at = self._compared.get((place, number), 0)
                while at < min(len(first), len(other)) and first[at] == other[at]:
                    at += 1
                self._compared[(place, number)] = at
                if at < min(len(first), len(other)):
                    self._parted[(place, number)] = at  # as the verdict counts: in its family
            parted = [self._parted.get((place, n)) for n in range(len(self.families))]
            if None not in parted:
                self.diverged_at = max(parted)
                self.stop.set()
                self.told(
                    f"{self.label}: diverged at draw #{self.diverged_at} after "
                    f"{time.monotonic() - self._start:.0f} s: stopped there"
                )
                return

    def status(self) -> str:
        """The live line: how long the runs have taken, the draws each traced, the divergence."""
        with self._lock:
            counts = " and ".join(f"{self._counts.get(p, 0):,}" for p in sorted(self._counts))
            parted = (
                f", diverged at draw #{self.diverged_at}" if self.diverged_at is not None else ""
            )
            return (
                f"{self.label}: {time.monotonic() - self._start:.0f} s, "
                f"{counts} draws traced{parted}"
            )


# Files a program resumes from: left out of a scratch working directory, so no run resumes from a
# checkpoint of the user's.
CHECKPOINT_SUFFIXES = (".pt", ".pth", ".ckpt", ".tar")


@contextmanager
def scratch_directory(source: Path) -> Iterator[Path]:
    """A fresh working directory whose entries link to those of `source` (checkpoint files left
    out), in a fresh parent whose entries link to those of `source`'s parent (`../data` still
    reaches the data): the program reads as in `source`, and what it writes there stays here."""
    source = source.resolve()
    with tempfile.TemporaryDirectory(prefix="seedlint-scratch-") as directory:
        scratch = Path(directory, source.name or "root")
        scratch.mkdir()
        _link_entries(source.parent, Path(directory), but=source)
        _link_entries(source, scratch)
        yield scratch


def _link_entries(source: Path, target: Path, but: Path | None = None) -> None:
    """Link each entry of `source` from `target` (not `but`, nor a checkpoint file)."""
    if source == but:
        return
    with suppress(OSError):
        for entry in source.iterdir():
            if entry != but and not (entry.is_file() and entry.suffix in CHECKPOINT_SUFFIXES):
                Path(target, entry.name).symlink_to(entry.resolve())


def run_resumed(plan: RunPlan) -> list[Run]:
    """An uninterrupted run, a run stopped after its first checkpoint save, and that run started
    again in the same scratch directory (to resume), each in a scratch directory (`contained`)."""
    uninterrupted = run_traced(replace(plan, contained=True))
    with scratch_directory(plan.cwd) as scratch:
        interrupted = run_traced(replace(plan, scratch=scratch, interrupt=True))
        return [uninterrupted, interrupted, run_traced(replace(plan, scratch=scratch))]


def run_traced(plan: RunPlan) -> Run:
    """Run the plan once in a fresh interpreter, contained: its output capped, its temporary files
    in a directory of ours, and every process it started stopped when it ends, times out or is
    interrupted."""
    if plan.contained and plan.scratch is None:
        with scratch_directory(plan.cwd) as scratch:
            return run_traced(replace(plan, scratch=scratch))
    with tempfile.TemporaryDirectory(prefix="seedlint-verify-") as directory:
        trace, config = Path(directory, "trace.jsonl"), Path(directory, "config.json")
        settings = {"sources": plan.sources, "seed_offset": plan.seed_offset}
        if plan.scratch is not None:
            settings.update(
                checkpoints=str(plan.scratch),
                source=str(plan.cwd.resolve()),
                interrupt=plan.interrupt,
            )
        config.write_text(json.dumps(settings), encoding="utf-8")
        program_temporary = Path(directory, "tmp")
        program_temporary.mkdir()
        launcher = [sys.executable]
        if plan.nproc_per_node:
            launcher += [
                "-m",
                "torch.distributed.run",
                "--standalone",
                f"--nproc-per-node={plan.nproc_per_node}",
            ]
        command = [*launcher, _LAUNCHER, str(trace), str(config), str(plan.script), *plan.args]
        marker = secrets.token_hex(8)
        environment = {
            **os.environ,
            **plan.environment,
            "TMPDIR": str(program_temporary),
            RUN_MARKER: marker,
        }
        if _STOPPING.is_set():
            raise KeyboardInterrupt
        start = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=plan.scratch or plan.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=environment,
        )
        processes = _RunProcesses(process, f"{RUN_MARKER}={marker}".encode())
        output = _Output(process)
        try:
            with _live(processes), _killed_on_interrupt():
                returncode = _wait(process, start, plan, output, trace)
            seconds = time.monotonic() - start
        finally:  # what the program left running goes, and with it the last holders of the pipes
            processes.stop()
            output.finish()
        stderr = output.streams["stderr"].text()
        ranks = [
            _read_run(path, returncode, stderr, seconds)
            for path in sorted(trace.parent.glob("trace.rank*.jsonl"), key=_rank_of)
        ]
        run = ranks[0] if ranks else _read_run(trace, returncode, stderr, seconds)
        run.ranks = ranks
        run.stopped = (
            returncode is None and plan.comparison is not None and plan.comparison.stop.is_set()
        )
        run.stdout = output.streams["stdout"].text()
        for each in ranks or [run]:
            each.output_sizes = output.truncated_sizes()
    return run


def _rank_of(path: Path) -> int:
    return int(path.name.split(".")[1].removeprefix("rank"))


def _read_run(trace: Path, returncode: int | None, stderr: str, seconds: float) -> Run:
    """A run's records: the main process's trace, and each child process's (`<trace>.<pid>`)."""
    children = [_read_trace(path) for path in sorted(trace.parent.glob(f"{trace.name}.*"))]
    return Run(_read_trace(trace), returncode, stderr, seconds, children)


def _wait(
    process: subprocess.Popen, start: float, plan: RunPlan, output: _Output, trace: Path
) -> int | None:
    """Read the program's output until it exits (its exit status), until the timeout (None), or
    until the runs it is compared with have diverged from it (None: `Run.stopped`), reporting
    progress every second."""
    deadline, report, follow = start + plan.timeout, start + 1.0, start
    comparison = plan.comparison
    while process.poll() is None:
        now = time.monotonic()
        if now >= deadline:
            return None
        if comparison is not None and now >= follow:
            comparison.follow(plan.place, trace)
            follow = now + _FOLLOW
            if comparison.stop.is_set():
                return None
        if plan.progress is not None and now >= report and plan.place == 0:
            plan.progress(
                comparison.status()
                if comparison is not None
                else f"{plan.script.name}: {now - start:.0f} s"
            )
            report += 1.0
        output.read(min(_POLL, deadline - now))
    if comparison is not None:  # the rest of its trace, for the runs still going
        comparison.follow(plan.place, trace)
    return process.returncode


class _Stream:
    """What the program wrote to one stream: its first and last `OUTPUT_KEPT` bytes, and its
    size."""

    def __init__(self) -> None:
        self.head, self.tail, self.size = bytearray(), bytearray(), 0

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        room = max(OUTPUT_KEPT - len(self.head), 0)
        self.head += chunk[:room]
        self.tail += memoryview(chunk)[max(room, len(chunk) - OUTPUT_KEPT) :]
        del self.tail[:-OUTPUT_KEPT]

    @property
    def left_out(self) -> int:
        return self.size - len(self.head) - len(self.tail)

    def text(self) -> str:
        middle = f"\n[... {self.left_out} bytes left out ...]\n" if self.left_out else ""
        return self.head.decode("utf-8", "replace") + middle + self.tail.decode("utf-8", "replace")


class _Output:
    """Reads the program's stdout and stderr as they come (the program never blocks on a full pipe),
    keeping a bounded part of each."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.streams = {"stdout": _Stream(), "stderr": _Stream()}
        self.selector = selectors.DefaultSelector()
        for name, pipe in (("stdout", process.stdout), ("stderr", process.stderr)):
            # Linux: a pipe of _CHUNK bytes, drained in fewer reads
            with suppress(AttributeError, OSError):
                fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, _CHUNK)
            self.selector.register(pipe, selectors.EVENT_READ, self.streams[name])

    def read(self, timeout: float) -> None:
        """Read what the pipes hold, waiting up to `timeout` seconds for something to come."""
        for key, _ in self.selector.select(timeout):
            chunk = os.read(key.fd, _CHUNK)
            if chunk:
                key.data.add(chunk)
            else:
                self.selector.unregister(key.fileobj)
                key.fileobj.close()

    def finish(self) -> None:
        """Read to the end of the pipes, for at most `_DRAIN` seconds (a process out of reach may
        hold them open), then close them."""
        deadline = time.monotonic() + _DRAIN
        while self.selector.get_map() and time.monotonic() < deadline:
            self.read(deadline - time.monotonic())
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()

    def truncated_sizes(self) -> dict[str, int]:
        """The size of each stream that was longer than what is kept of it."""
        return {name: stream.size for name, stream in self.streams.items() if stream.left_out}


class _RunProcesses:
    """The processes of one run: its process group and, on Linux, every process whose environment
    carries the run's marker (a daemon leaves the group, not its environment)."""

    def __init__(self, process: subprocess.Popen, marker: bytes) -> None:
        self.process, self.marker = process, marker

    def alive(self) -> set[int]:
        """The run's live processes (zombies are not); without /proc, the group if any member is
        left."""
        self.process.poll()  # the program's own process is reaped, not counted as a zombie
        try:
            pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        except OSError:
            return {self.process.pid} if _signal_group(self.process.pid, 0) else set()
        return {pid for pid in pids if self._is_member(pid)}

    def _is_member(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                state, _, group = stat.read().rpartition(b")")[2].split()[:3]
            return state not in (b"Z", b"X") and (
                int(group) == self.process.pid
                or self.marker in Path(f"/proc/{pid}/environ").read_bytes()
            )
        except (OSError, ValueError):  # gone meanwhile, or another user's process
            return False

    def send(self, signum: int) -> bool:
        """Send a signal to every process of the run; whether one was alive."""
        _signal_group(self.process.pid, signum)
        alive = self.alive()
        for pid in alive:
            with suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signum)
        return bool(alive)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL what is left after a short grace, sweeping until none is left (a
        process may fork as it dies, and a killed one takes a moment to end); the program's own
        process is reaped."""
        if self.send(signal.SIGTERM):
            deadline = time.monotonic() + _GRACE
            while self.alive() and time.monotonic() < deadline:
                time.sleep(0.02)
        deadline = time.monotonic() + _KILL_WAIT
        while self.send(signal.SIGKILL) and time.monotonic() < deadline:
            time.sleep(0.01)
        self.process.wait()


def _signal_group(group: int, signum: int) -> bool:
    """Send a signal to a process group; whether it has a process."""
    try:
        os.killpg(group, signum)
    except (ProcessLookupError, PermissionError):
        return False
    return True


_LIVE: set[_RunProcesses] = set()  # the runs under way, in any thread
_LIVE_LOCK = threading.Lock()
# set by Ctrl-C: runs not yet started do not start, started ones are killed
_STOPPING = threading.Event()


@contextmanager
def _live(processes: _RunProcesses) -> Iterator[None]:
    """Count the run among the live ones while it lasts; killed at once if Ctrl-C came meanwhile."""
    with _LIVE_LOCK:
        _LIVE.add(processes)
    if _STOPPING.is_set():
        processes.send(signal.SIGKILL)
    try:
        yield
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(processes)


def _interrupt(signum: int, frame: object) -> None:
    """The Ctrl-C handler while runs are under way: no run starts any more, every live one is
    killed."""
    _STOPPING.set()
    for processes in list(_LIVE):
        processes.send(signal.SIGKILL)
    raise KeyboardInterrupt


@contextmanager
def _killed_on_interrupt() -> Iterator[None]:
    """While it lasts, Ctrl-C kills the processes of every live run at once (in the signal handler,
    wherever the main thread is), then interrupts seedlint. Installed by the main thread, outermost
    only."""
    if (
        threading.current_thread() is not threading.main_thread()
        or _STOPPING.is_set()
        or (signal.getsignal(signal.SIGINT) is _interrupt)
    ):
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _STOPPING.clear()


def run_all(plans: list[RunPlan], jobs: int = 1) -> list[Run]:
    """Each plan run once, at most `jobs` runs at a time (in threads: each waits on its process),
    the runs in the plans' order; on Ctrl-C every run stops and none starts."""
    return list(concurrently(run_traced, plans, jobs))


def concurrently(work: Callable[[T], U], items: list[T], jobs: int) -> Iterator[U]:
    """`work` over `items`, at most `jobs` at a time in threads, each result yielded (in the items'
    order) as soon as it and those before it are done; `work`'s runs stop on Ctrl-C like a serial
    run's."""
    if jobs < 2 or len(items) < 2:
        yield from map(work, items)
        return
    with _killed_on_interrupt():
        pool = ThreadPoolExecutor(min(jobs, len(items)), thread_name_prefix="seedlint-verify")
        try:
            yield from pool.map(work, items)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


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
