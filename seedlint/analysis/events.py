"""The vocabulary of the flow analysis: what a call does to the global generators (`Effect`), where
it happens (`Event`, reached through a trail of `Step`s), what runs from one entry point (`Flow`),
what calling a project function does (`Summary`), and what the flow asks of the project (`Project`).

Nothing here reads a syntax tree: the analysis that builds these lives in `flow` (one module) and
`project` (the others), and the rules read them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    import libcst as cst

    from seedlint.analysis.index import ClassInfo, FunctionInfo, ModuleIndex, Statement

T = TypeVar("T")


@dataclass(frozen=True)
class Step:
    """One statement on the way to an event, and the call in it that leads on (if any)."""

    statement: Statement
    call: cst.Call | None


@dataclass(frozen=True)
class Effect:
    """What one call does to the global generators."""

    kind: str  # "seed" | "reseed" (nondeterministic) | "draw" | "reach" (a watched call)
    qualified: str
    generators: frozenset[str]
    seed_arg: cst.BaseExpression | None = None
    deterministic: bool = True
    summarised: bool = False  # a function of another project module, from its summary
    assumed: bool = (
        False  # an imported helper seedlint cannot read, taken to seed by its name (`set_seed`)
    )


# The effect of a watched call that does nothing to the generators: it marks where the flow runs it.
REACHED = Effect("reach", "", frozenset())


@dataclass(frozen=True)
class Event:
    """An effect where it happens in a flow."""

    effect: Effect
    call: cst.Call
    trail: tuple[Step, ...]

    @property
    def statement(self) -> Statement:
        return self.trail[-1].statement

    @property
    def kind(self) -> str:
        return self.effect.kind

    @property
    def generators(self) -> frozenset[str]:
        return self.effect.generators


@dataclass
class Flow:
    """The events of one entry point, in execution order."""

    root: FunctionInfo | None  # None: the module body
    events: list[Event]

    def seeds(self) -> list[Event]:
        return [e for e in self.events if e.kind == "seed" and e.effect.deterministic]

    @property
    def is_seeding(self) -> bool:
        """The flow makes at least one deterministic seeding call: it means to be reproducible."""
        return any(True for _ in self.seeds())

    def seeded_generators(self) -> frozenset[str]:
        seeded: set[str] = set()
        for event in self.seeds():
            seeded |= event.generators
        return frozenset(seeded)

    def first_unseeded_draw(
        self, generators: frozenset[str], ignored: Callable[[Event], bool] = lambda event: False
    ) -> Event | None:
        """The first draw from `generators` (not `ignored`) in a flow that seeds none of them
        (SL105's finding).

        Seeding them with a random value counts as seeding here: that is SL106's finding.
        """
        if any(e.generators & generators for e in self.events if e.kind in ("seed", "reseed")):
            return None
        return next(
            (
                e
                for e in self.events
                if e.kind == "draw" and e.generators & generators and not ignored(e)
            ),
            None,
        )


@dataclass(frozen=True)
class Site:
    """A place that runs a function, and what is seeded when it does."""

    module: str  # the file that runs it, as shown ("": a process's start)
    row: int | None  # the line of the call (None: its module was not parsed by the project)
    callee: str  # how the call names what it runs (`Runner(args).train`, `mp.Process`)
    seeded: frozenset[str]  # the generators seeded there (CUDA's current device counted as CUDA)
    known: bool  # whether that is all: the caller's own entry is known
    forked: bool = False  # a forked child process, where CPython reseeds `random` from OS entropy
    call: cst.Call | None = None  # the call itself


@dataclass(frozen=True)
class Entry:
    """What is seeded when a flow starts: where its function is run from, as far as the project
    shows.

    The module body (and a process's start) begins with nothing seeded. A function the project
    runs starts with what its callers seeded: what every caller seeded is seeded; a generator a
    caller whose own state is known left unseeded is unseeded there. A function nothing in the
    project runs (a library's API) starts in a state the analysis has not seen.
    """

    sites: tuple[Site, ...] = ()
    fresh: bool = False  # a process's start: nothing is seeded

    @property
    def seeded(self) -> frozenset[str]:
        """The generators seeded at every site (none for a fresh or an unknown start)."""
        if self.fresh or not self.sites:
            return frozenset()
        return frozenset.intersection(*(site.seeded for site in self.sites))

    def unseeded_at(self, generators: frozenset[str]) -> Site | None:
        """A known site where none of `generators` is seeded; for a fresh start, `START`."""
        if self.fresh:
            return START
        return next(
            (site for site in self.sites if site.known and not site.seeded & generators), None
        )


FRESH = Entry(fresh=True)
START = Site("", None, "", frozenset(), True)  # where a process starts: nothing seeded


@dataclass(frozen=True)
class Summary:
    """What calling a function does to the global generators."""

    seeds: frozenset[str]  # generators it seeds with a deterministic value
    # (name, position if positional) the seed comes through
    seed_parameter: tuple[str, int | None] | None
    draws: frozenset[str]  # generators it draws from before seeding them


class Project(Protocol):
    """What the flow analysis of one module asks of the project around it
    (`project.ProjectIndex`)."""

    gate: tuple[bytes, ...]  # what a module's text must contain for its functions to be summarised

    def summary(self, qualified: str, call: cst.Call | None = None) -> Summary | None:
        """What a call to a project function does to the global generators (None: nothing, or
        unknown)."""

    def function(
        self, qualified: str, gate: tuple[bytes, ...]
    ) -> tuple[ModuleIndex, FunctionInfo] | None:
        """The module and function a qualified callee runs, read only from a module whose text has
        one of `gate`."""

    def constructor_summary(self, base: str, index: ModuleIndex, cls: ClassInfo) -> Summary | None:
        """What the constructor of `base`, a class of another project module, does when run for
        `cls` (with the methods `cls` overrides)."""

    def derives_from(
        self, qualified: str, bases: frozenset[str], spellings: tuple[bytes, ...]
    ) -> bool:
        """Whether a project class without an `__init__` of its own derives from one of `bases`."""

    def has_module_of(self, qualified: str) -> bool:
        """Whether a module of the project holds what a dotted name names."""

    def seeding_only(self) -> AbstractContextManager[None]:
        """While only seeding matters: read only modules that can seed."""

    def remembered(
        self, cache: dict[Hashable, tuple[T, Mapping]], key: Hashable, compute: Callable[[], T]
    ) -> T:
        """`compute()`, kept in `cache` with the modules it read; reused, those count as read
        again."""
