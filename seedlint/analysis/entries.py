"""Program context: where each function is run from, and what is seeded when it runs.

A flow starts at an entry point (`flow`). The module body starts a process, with nothing seeded. A
function nothing in its module calls is judged where the program runs it: at the calls other
project modules make to it (`Runner(args).train()` in `main.py`), and where its own module hands it
to something that runs it (`Process(target=worker)`, `mp.spawn(worker)`, `fire.Fire(main)`,
`DataLoader(worker_init_fn=seed_worker)`). Each such place is a `Site`, with what is seeded
there: the seeding before the call in the caller's flow, plus the caller's own entry (followed a
few callers up), less what the way it is run resets (facts, "Processes and resumed runs"):
- a spawned child (`torch.multiprocessing.spawn`) starts fresh, with only what its module's top
  level seeds on import;
- a child started by `multiprocessing` inherits torch's and NumPy's states when forked, but CPython
  reseeds `random` from OS entropy in every forked child;
- a DataLoader worker has `random`, NumPy and torch seeded per worker before it runs a
  `worker_init_fn`.
A function with no such place (a library's API, or a method called on an object whose class the
analysis cannot tell) has an entry the analysis has not seen: what it leaves unseeded may be
seeded by its caller, and is not reported.

Calls from other modules are found in the project's files (`ModuleFinder.project_files`) whose
text calls the function's name and mentions its module or class, each parsed once by the project
index (and recorded as read, so a caller's edit re-checks the function's findings).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from weakref import WeakKeyDictionary

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.events import FRESH, Entry, Flow, Site
from seedlint.analysis.flow import (
    FlowBuilder,
    exclusive,
    remembered,
    seeded_by,
    seeded_on_import,
)
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Scope
from seedlint.analysis.project import ProjectIndex
from seedlint.analysis.walk import written
from seedlint.files import display_path

_MAX_DEPTH = 4  # how many callers up a caller's own entry is followed
_PARTIAL = frozenset({"functools.partial"})
_ANALYSES: WeakKeyDictionary[ProjectIndex, Entries] = WeakKeyDictionary()


def entry_of(
    flow: Flow, index: ModuleIndex, builder: FlowBuilder, project: ProjectIndex | None
) -> Entry:
    """What is seeded when `flow` starts, as far as the program around it shows."""
    if flow.root is None:
        return FRESH
    if project is None:
        return Entry(tuple(Entries(None).local_sites(index, builder, flow.root, 0, frozenset())))
    if project not in _ANALYSES:
        _ANALYSES[project] = Entries(project)
    return _ANALYSES[project].entry(index, builder, flow.root)


class Entries:
    """The entries of a project's functions, each found once per run."""

    def __init__(self, project: ProjectIndex | None) -> None:
        self.project = project
        self._entries: dict = {}

    def entry(
        self,
        index: ModuleIndex,
        builder: FlowBuilder,
        function: FunctionInfo,
        depth: int = 0,
        visiting: frozenset[str] = frozenset(),
    ) -> Entry:
        key = (index.module_name, function.qualified)
        if key in visiting or depth > _MAX_DEPTH:
            return Entry()
        inner = visiting | {key}

        def local() -> tuple[Site, ...]:
            return tuple(self.local_sites(index, builder, function, depth, inner))

        def elsewhere() -> tuple[Site, ...]:
            return tuple(self._sites_elsewhere(index, builder, function, depth, inner))

        if self.project is None or depth:
            return Entry(local() + elsewhere())
        # Its own module's sites hold nodes of this index (a linted file's own parse, lean or
        # full, is not the project's): kept with it. The other modules' come from the project's.
        return Entry(
            self.project.remembered(builder.memo, ("local sites", function.qualified), local)
            + self.project.remembered(self._entries, key, elsewhere)
        )

    def local_sites(
        self,
        index: ModuleIndex,
        builder: FlowBuilder,
        function: FunctionInfo,
        depth: int,
        visiting: frozenset[str],
    ) -> Iterator[Site]:
        """The places its own module hands the function to something that runs it."""
        handed = [
            (call, scope)
            for call, scope in index.all_calls
            if _hands_on(index, call, scope, function)
        ]
        for call, scope in handed:
            runner = index.qualify(call.func, scope) or ""
            yield from self._sites_at(index, builder, call, runner, depth, visiting)

    def _sites_elsewhere(
        self,
        index: ModuleIndex,
        builder: FlowBuilder,
        function: FunctionInfo,
        depth: int,
        visiting: frozenset[str],
    ) -> Iterator[Site]:
        """The calls other project modules make to the function, with what its own module seeds
        on import (which runs before any of them can call it: `torch.manual_seed(1)` at the top
        of `train.py`, then `train(..)` in `main.py`)."""
        project = self.project
        if project is None:
            return
        on_import: frozenset[str] | None = None
        for _, caller, call in project.calls_from_other_modules(index, function):
            if on_import is None:  # the module body walked once for all its functions
                on_import = remembered(
                    project,
                    builder.memo,
                    "seeded on import",
                    lambda: seeded_on_import(builder.walk(None)),
                )
            for site in self._sites_at(caller, project.builder(caller), call, "", depth, visiting):
                yield replace(site, seeded=site.seeded | on_import) if on_import else site

    def _sites_at(
        self,
        index: ModuleIndex,
        builder: FlowBuilder,
        call: cst.Call,
        runner: str,
        depth: int,
        visiting: frozenset[str],
    ) -> Iterator[Site]:
        """The site of a call that runs the function (`runner`: what the function is handed to,
        "" when called), once per flow of its module that reaches it."""
        place = self._place(index, call)
        if runner in catalog.DATA_LOADERS:  # a worker_init_fn: every generator seeded per worker
            yield Site(*place, catalog.EVERYTHING, True, call=call)
            return
        if runner in catalog.SPAWNERS:
            yield Site(*place, seeded_on_import(builder.walk(None)), True, call=call)
            return
        for flow, event in builder.reaching([call]):
            seeded = set(
                seeded_by(
                    before
                    for before in flow.events[: flow.events.index(event)]
                    if not exclusive(index, before, event)
                )
            )
            known = True
            if flow.root is not None:
                parent = self.entry(index, builder, flow.root, depth + 1, visiting)
                seeded |= parent.seeded
                known = bool(parent.sites) and all(site.known for site in parent.sites)
            if runner.startswith(catalog.PROCESS_MODULES):
                yield Site(*place, frozenset(seeded - {catalog.PYTHON_RANDOM}), known, True, call)
            else:
                yield Site(*place, frozenset(seeded), known, call=call)

    def _place(self, index: ModuleIndex, call: cst.Call) -> tuple[str, int | None, str]:
        """(the caller's file as shown, the call's line, how it names its callee); the call itself
        goes last in `Site`."""
        project = self.project
        found = project.finder.read(index.module_name) if project is not None else None
        path = display_path(Path(found[0])) if found is not None else index.module_name
        row = project.row_of(index, call) if project is not None else None
        return path, row, written(call.func)


def started_in_processes(index: ModuleIndex, builder: FlowBuilder) -> list[FunctionInfo]:
    """The entry points of a module that it hands to `multiprocessing` (a `Process` target, a
    `Pool` map): code its processes run, in the state their start gives them."""
    launches = [
        (call, scope)
        for call, scope in index.all_calls
        if call.args and (index.qualify(call.func, scope) or "").startswith(catalog.PROCESS_MODULES)
    ]
    if not launches:
        return []
    return [
        root
        for root in builder.roots()
        if root is not None and any(_hands_on(index, call, scope, root) for call, scope in launches)
    ]


def _hands_on(index: ModuleIndex, call: cst.Call, scope: Scope, function: FunctionInfo) -> bool:
    """Whether a call is given the function itself to run (`Process(target=worker)`), directly or
    through `functools.partial(worker, ..)`."""
    for arg in call.args:
        value = arg.value
        if (
            isinstance(value, cst.Call)
            and index.qualify(value.func, scope) in _PARTIAL
            and value.args
        ):
            value = value.args[0].value
        if isinstance(value, (cst.Name, cst.Attribute)) and (
            index.functions.get(index.qualify(value, scope) or "") is function
        ):
            return True
    return False
