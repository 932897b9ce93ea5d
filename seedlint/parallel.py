"""Analysis in a pool of processes, for the files (and gate modules) the cache does not know.

Each worker holds a checker of its own (its project index, parsed modules and summaries) for the
whole run, and is handed chunks of neighbouring files, which tend to read the same helpers. Results
come back with the modules each read and the summaries computed, so the parent's project model
caches them as if it had done the work; the parent keeps the files' order, so the output is the
same as a serial run's. The pool is used only when it pays: more than one CPU and enough files;
when processes cannot be started or one dies, the rest is done serially.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from seedlint.results import LintResult
    from seedlint.runner import Checker, CheckOptions

T = TypeVar("T")
U = TypeVar("U")
MIN_FILES = 16  # fewer files to analyse than this: starting processes costs more than it saves
_CHUNKS_PER_WORKER = 16

_WORKER: Checker | None = None  # in a worker process: its checker


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Pool:
    """Worker processes for one run (started on first use), or none: then everything runs here."""

    def __init__(self, jobs: int, options: CheckOptions, files: list[Path], summaries: Callable[[], dict]) -> None:
        self.jobs = jobs
        self._options, self._files, self._summaries = replace(options, cache=False), files, summaries
        self._executor: ProcessPoolExecutor | None = None
        self.broken = jobs < 2
        self.used = False  # whether any work ran in the workers

    def map(self, work: Callable[[list[T]], list[U]], items: list[T], serial: Callable[[list[T]], list[U]],
            ) -> list[U]:
        """`work` over chunks of `items` in the workers (`serial` here, when the pool does not pay or fails),
        results in the items' order."""
        if self.broken or len(items) < MIN_FILES:
            return serial(items)
        chunks = _chunks(items, self.jobs * _CHUNKS_PER_WORKER)
        try:
            if self._executor is None:
                arguments = (self._options, self._files, self._summaries())
                self._executor = ProcessPoolExecutor(self.jobs, mp_context=_context(), initializer=_start,
                                                     initargs=arguments)
            results = [result for chunk in self._executor.map(work, chunks) for result in chunk]
            self.used = True
            return results
        except (OSError, BrokenProcessPool, NotImplementedError, PermissionError) as error:
            print(f"seedlint: warning: analysing in one process ({type(error).__name__}: {error})", file=sys.stderr)
            self.close()
            self.broken = True
            return serial(items)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None


def _context() -> multiprocessing.context.BaseContext:
    """Fork where the platform has it (workers start with what the parent imported), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else "spawn")


def _chunks(items: list[T], count: int) -> list[list[T]]:
    """Consecutive runs of items (neighbouring files share helpers), about `count` of them."""
    size = max(1, -(-len(items) // count))
    return [items[start:start + size] for start in range(0, len(items), size)]


# ---------------------------------------------------------------------- in the workers
def _start(options: CheckOptions, files: list[Path], summaries: dict) -> None:
    global _WORKER
    from seedlint.runner import Checker

    _WORKER = Checker(options)
    _WORKER.prepare(files, summaries)


def gates_in_worker(files: list[Path]) -> list[tuple[tuple[frozenset[bytes], dict, bool], dict, list[str]]]:
    """Modules' gates (with what was read to find them, and whether it failed), and the new summaries."""
    return [(_WORKER.model.computed_gates(file), *_WORKER.model.news()) for file in files]


def lint_in_worker(batch: list[tuple[Path, bytes, frozenset[bytes]]]) -> list[tuple[LintResult, dict, list[str]]]:
    """Lint files; each result comes with the summaries and index errors that are new since the last."""
    results = []
    for path, data, gates in batch:
        _WORKER.use_gates(gates)
        result = _WORKER.analyse(path, data)
        if not result.changed:
            result.source = result.original = None  # not needed by the parent: spare the pickling
        results.append((result, *_WORKER.model.news()))
    return results


def merged(outputs: Iterable[tuple[T, dict, list[str]]], absorb: Callable[[dict, list[str]], None]) -> list[T]:
    """The results of worker outputs, their summaries and errors handed to `absorb`."""
    values = []
    for value, summaries, errors in outputs:
        absorb(summaries, errors)
        values.append(value)
    return values
