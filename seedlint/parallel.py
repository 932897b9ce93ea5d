"""A pool of worker processes that pays for itself: work is handed to it in chunks of neighbouring
items, results come back in the items' order, and it is used only when it pays (more than one CPU
and enough items); when processes cannot be started or one dies, the rest is done here, serially.

What the workers hold and do (the runner's entry points) is the caller's: `initializer(*initargs())`
runs once in each worker.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

# started only when the pool is used (a warm run's import time counts)
if TYPE_CHECKING:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
U = TypeVar("U")
MIN_ITEMS = 16  # fewer items than this: starting processes costs more than it saves
_CHUNKS_PER_WORKER = 16


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Pool:
    """Worker processes for one run (started on first use), or none: then everything runs here.

    Each worker runs `initializer(*initargs())` when it starts (`initargs` is called then, in this
    process, so what it computes is paid only when the pool is used)."""

    def __init__(
        self, jobs: int, initializer: Callable[..., None], initargs: Callable[[], tuple]
    ) -> None:
        self.jobs = jobs
        self._initializer, self._initargs = initializer, initargs
        self._executor: ProcessPoolExecutor | None = None
        self.broken = jobs < 2
        self.used = False  # whether any work ran in the workers

    def map(
        self,
        work: Callable[[list[T]], list[U]],
        items: list[T],
        serial: Callable[[list[T]], list[U]],
        weight: Callable[[T], int] = lambda item: 1,
    ) -> list[U]:
        """`work` over chunks of `items` in the workers (`serial` here, when the pool does not pay
        or fails), results in the items' order. The heaviest chunks (by the items' `weight`) go
        first, so that no worker is left with a heavy one when the others are done."""
        if self.broken or len(items) < MIN_ITEMS:
            return serial(items)
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        chunks = _chunks(items, self.jobs * _CHUNKS_PER_WORKER)
        try:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.jobs,
                    mp_context=_context(),
                    initializer=self._initializer,
                    initargs=self._initargs(),
                )
            heaviest = sorted(range(len(chunks)), key=lambda i: -sum(map(weight, chunks[i])))
            futures = {i: self._executor.submit(work, chunks[i]) for i in heaviest}
            results = [result for i in range(len(chunks)) for result in futures[i].result()]
            self.used = True
            return results
        except (OSError, BrokenProcessPool, NotImplementedError, PermissionError) as error:
            print(
                f"seedlint: warning: analysing in one process ({type(error).__name__}: {error})",
                file=sys.stderr,
            )
            self.close()
            self.broken = True
            return serial(items)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None


def _context() -> multiprocessing.context.BaseContext:
    """Fork where the platform has it (workers start with what the parent imported), else spawn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context(
        "fork" if "fork" in methods and sys.platform != "darwin" else "spawn"
    )


def _chunks(items: list[T], count: int) -> list[list[T]]:
    """Consecutive runs of items (neighbouring files share helpers), about `count` of them."""
    size = max(1, -(-len(items) // count))
    return [items[start : start + size] for start in range(0, len(items), size)]
