"""A pool of worker processes that pays for itself: work is handed to it in chunks of neighbouring
items, results come back in the items' order, and it is used only when it pays (more than one CPU
and enough items); when processes cannot be started or one dies, the rest is done here, serially.

Each worker keeps what it learnt (the syntax trees it parsed, the summaries it computed): a chunk
goes to the worker that had most of its items in an earlier map (a file's gates and then its
findings are found in the same process), and a worker with nothing of its own left takes the
lightest chunk another is still to do.

What the workers hold and do (the runner's entry points) is the caller's: `initializer(*initargs())`
runs once in each worker.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar

# started only when the pool is used (a warm run's import time counts)
if TYPE_CHECKING:
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

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
        self._workers: list[ProcessPoolExecutor] = []  # one process each
        self._had: dict[Hashable, int] = {}  # an item's key: the worker that last had it
        self.broken = jobs < 2
        self.used = False  # whether any work ran in the workers

    def map(
        self,
        work: Callable[[list[T]], list[U]],
        items: list[T],
        serial: Callable[[list[T]], list[U]],
        weight: Callable[[T], int] = lambda item: 1,
        key: Callable[[T], Hashable] = lambda item: item,
    ) -> list[U]:
        """`work` over chunks of `items` in the workers (`serial` here, when the pool does not pay
        or fails), results in the items' order. An item's `key` names it across maps (where it
        goes, `_queues`); each worker does its chunks heaviest first (by the items' `weight`), so
        that none is left with a heavy one when the others are done."""
        if self.broken or len(items) < MIN_ITEMS:
            return serial(items)
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        chunks = _chunks(items, self.jobs * _CHUNKS_PER_WORKER)
        try:
            if not self._workers:
                initargs = self._initargs()
                self._workers = [
                    ProcessPoolExecutor(
                        1,
                        mp_context=_context(),
                        initializer=self._initializer,
                        initargs=initargs,
                    )
                    for _ in range(self.jobs)
                ]
            queues = self._queues(chunks, weight, key)
            running: dict[Future, tuple[int, int]] = {}  # a chunk's future: the chunk, the worker

            def hand_out(worker: int) -> None:
                """The worker's next chunk, or the lightest one of the longest other queue."""
                own = queues[worker]
                queue = own or max(queues, key=len)
                if queue:
                    chunk = queue.pop(0) if own else queue.pop()
                    running[self._workers[worker].submit(work, chunks[chunk])] = (chunk, worker)

            for worker in range(self.jobs):
                hand_out(worker)
            done: dict[int, list[U]] = {}
            while running:
                for future in wait(running, return_when=FIRST_COMPLETED)[0]:
                    chunk, worker = running.pop(future)
                    done[chunk] = future.result()
                    self._had.update((key(item), worker) for item in chunks[chunk])
                    hand_out(worker)
            self.used = True
            return [result for chunk in range(len(chunks)) for result in done[chunk]]
        except (OSError, BrokenProcessPool, NotImplementedError, PermissionError) as error:
            print(
                f"seedlint: warning: analysing in one process ({type(error).__name__}: {error})",
                file=sys.stderr,
            )
            self.close()
            self.broken = True
            return serial(items)

    def _queues(
        self, chunks: list[list[T]], weight: Callable[[T], int], key: Callable[[T], Hashable]
    ) -> list[list[int]]:
        """Each worker's chunks, heaviest first: a chunk goes to the worker that had most of its
        items; those none had are cut into runs of neighbouring chunks (a package's files share
        its helpers), one per worker, that bring each worker's weight to an equal share."""
        weights = [sum(map(weight, chunk)) for chunk in chunks]
        queues: list[list[int]] = [[] for _ in range(self.jobs)]
        queued = [0] * self.jobs
        fresh = []
        for chunk in range(len(chunks)):
            had = [self._had[key(item)] for item in chunks[chunk] if key(item) in self._had]
            if not had:
                fresh.append(chunk)
                continue
            worker = max(set(had), key=had.count)
            queues[worker].append(chunk)
            queued[worker] += weights[chunk]
        target = (sum(queued) + sum(weights[chunk] for chunk in fresh)) / self.jobs
        taken = 0  # the fresh chunks queued so far
        by_load = sorted(range(self.jobs), key=queued.__getitem__)
        for worker in by_load:
            while taken < len(fresh) and (queued[worker] < target or worker == by_load[-1]):
                queues[worker].append(fresh[taken])
                queued[worker] += weights[fresh[taken]]
                taken += 1
        for queue in queues:
            queue.sort(key=lambda chunk: -weights[chunk])
        return queues

    def close(self) -> None:
        for worker in self._workers:
            worker.shutdown(cancel_futures=True)
        self._workers = []


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
