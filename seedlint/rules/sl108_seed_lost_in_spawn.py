"""SL108 seed-lost-in-spawn: seeded code starts a spawned process that leaves generators it uses
unseeded."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event, Flow
from seedlint.analysis.flow import exclusive, seeded_by, seeded_on_import
from seedlint.analysis.index import FunctionInfo, Scope
from seedlint.diagnostics import Applicability, Fix
from seedlint.gates import SEEDING
from seedlint.rules.base import Finding, Probe, Rule

# Start methods that run the target in a fresh interpreter (fork copies the parent's seeded state).
_FRESH_INTERPRETER_METHODS = frozenset({"spawn", "forkserver"})
_MAX_DEPTH = 12  # how far name aliases and chains of callers are followed


@dataclass(frozen=True)
class _Launcher:
    """Where a process-starting call takes its target, and where its start method comes from."""

    target: tuple[str, int]  # keyword, position
    # "argument": its own `start_method` (default "spawn"); "context": the `get_context(method)` it
    # is called on; "config": the `LaunchConfig` it gets (default "spawn"); "global":
    # `set_start_method`.
    method_from: str


_SPAWN = _Launcher(("fn", 0), "argument")
_CONTEXT_PROCESS = _Launcher(("target", 1), "context")
_GLOBAL_PROCESS = _Launcher(("target", 1), "global")
_ELASTIC = _Launcher(("entrypoint", 1), "config")
_LAUNCHERS = {
    "torch.multiprocessing.spawn": _SPAWN,
    "torch.multiprocessing.spawn.spawn": _SPAWN,
    "torch.multiprocessing.start_processes": _SPAWN,
    "torch.multiprocessing.spawn.start_processes": _SPAWN,
    "multiprocessing.get_context().Process": _CONTEXT_PROCESS,
    "torch.multiprocessing.get_context().Process": _CONTEXT_PROCESS,
    "multiprocessing.Process": _GLOBAL_PROCESS,
    "torch.multiprocessing.Process": _GLOBAL_PROCESS,
    "torch.distributed.launcher.api.elastic_launch": _ELASTIC,
    "torch.distributed.launcher.elastic_launch": _ELASTIC,
}
_GET_CONTEXT = frozenset({"multiprocessing.get_context", "torch.multiprocessing.get_context"})
_SET_START_METHOD = ("multiprocessing.set_start_method", "torch.multiprocessing.set_start_method")
_LAUNCH_CONFIGS = frozenset(
    {"torch.distributed.launcher.api.LaunchConfig", "torch.distributed.launcher.LaunchConfig"}
)
_SPAWN_START_METHOD = ("start_method", 5)
_LAUNCH_CONFIG_START_METHOD = ("start_method", 12)  # its position in torch 2.13


class SeedLostInSpawn(Rule):
    code = "SL108"
    name = "seed-lost-in-spawn"
    summary = (
        "Seeded code starts a spawn/forkserver process that leaves generators it uses unseeded"
    )
    fix_availability = "display-only"
    patterns = tuple(
        (launch, SEEDING)
        for launch in (b"spawn", b"forkserver", b"start_processes", b"elastic_launch")
    )
    probe = Probe.CHILD_PROCESSES

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.seeding_flows:
            return
        launches = context.calls_to(*_LAUNCHERS)
        reached = context.placements(call for call, _ in launches)
        body = next((flow for flow in context.seeding_flows if flow.root is None), None)
        at_import = seeded_on_import(body, deterministic_only=True) if body else frozenset()
        for call, scope in launches:
            launcher = _LAUNCHERS[context.index.qualify(call.func, scope)]
            method = _start_method(context, call, scope, launcher)
            target = _local_target(context, call, scope, launcher)
            if method not in _FRESH_INTERPRETER_METHODS or target is None:
                continue
            child = context.walk(target)
            child_seeds = at_import | catalog.cuda_as_one(_seeded_in_child(child.events))
            for flow, event in reached.get(call, ()):
                parent_seeds = seeded_by(_before(context, flow, event), deterministic_only=True)
                lost = _lost_in_child(parent_seeds, child_seeds, child)
                if lost:
                    yield _finding(context, call, target, method, lost, bool(child_seeds))
                    break


def _seeded_in_child(events: list[Event]) -> frozenset[str]:
    """The generators a child's `events` seed, a random seed included: SL106 reports it, and the
    process does mean to seed (a reseed of no named generator counts as the CPU generator's)."""
    seeded: set[str] = set()
    for event in events:
        if event.kind == "seed":
            seeded |= event.generators
        elif event.kind == "reseed":
            seeded |= event.generators or {catalog.TORCH_CPU}
    return frozenset(seeded)


def _before(context: FileContext, flow: Flow, launch: Event) -> list[Event]:
    """The events of `flow` before it runs the launch, in branches that can precede it."""
    return [
        event
        for event in flow.events[: flow.events.index(launch)]
        if not exclusive(context.index, event, launch)
    ]


def _lost_in_child(
    parent: frozenset[str], child: frozenset[str], child_flow: Flow
) -> frozenset[str]:
    """The generators seeded before the launch that the child leaves at random and that matter
    there: all of them when it seeds nothing, else those it draws from, and its CPU generator when
    it seeds only CUDA (CPU-side randomness is everywhere: parameter init, shuffling, worker
    seeds)."""
    if not parent:
        return frozenset()
    if not child:
        return parent
    drawn = {g for event in child_flow.events if event.kind == "draw" for g in event.generators}
    if catalog.CUDA in child:
        drawn.add(catalog.TORCH_CPU)
    return (parent - child) & frozenset(drawn)


def _finding(
    context: FileContext,
    call: cst.Call,
    target: FunctionInfo,
    method: str,
    lost: frozenset[str],
    seeds_some: bool,
) -> Finding:
    name = target.node.name.value
    help = (
        f"Seed at the start of `{name}` (for example "
        "`torch.manual_seed(seed)`, with the seed passed in)"
    )
    start = (
        f"`{context.code(call.func)}` runs `{name}` in a fresh interpreter ({method} start method) "
        "whose generators are seeded at random"
    )
    if seeds_some:
        labels = " and ".join(sorted(catalog.GENERATOR_LABELS[g] for g in lost))
        generators, them = ("generator", "it") if len(lost) == 1 else ("generators", "them")
        message = (
            f"{start}, and `{name}` does not seed the {labels} {generators} that the seeding here "
            f"covers, so its draws from {them} change from run to run"
        )
        help = (
            f"Seed the {labels} {generators} at the start of `{name}` too "
            "(`torch.manual_seed` seeds CPU and CUDA)"
        )
    else:
        message = (
            f"{start}, and `{name}` never seeds, so the seeding done here does not reach it and "
            "its results change from run to run"
        )
    return Finding(
        call,
        message,
        Fix(f"Seed inside `{name}`", Applicability.DISPLAY_ONLY),
        help=help,
        generators=lost if seeds_some else frozenset(),
    )


def _local_target(
    context: FileContext, call: cst.Call, scope: Scope, launcher: _Launcher
) -> FunctionInfo | None:
    target = argument(call, *launcher.target)
    if target is None:
        return None
    return context.index.functions.get(context.index.qualify(target, scope))


def _start_method(
    context: FileContext, call: cst.Call, scope: Scope, launcher: _Launcher
) -> str | None:
    """The start method a call uses, or None when it is not known (a variable, the platform's
    default)."""
    if launcher.method_from == "argument":
        return _literal(argument(call, *_SPAWN_START_METHOD), "spawn")
    if launcher.method_from == "context":
        factory = _bound_call(context, call.func.value, scope)
        if factory is None or context.index.qualify(factory.func, scope) not in _GET_CONTEXT:
            return None
        return _literal(argument(factory, "method", 0), None)
    if launcher.method_from == "config":
        config = _bound_call(context, argument(call, "config", 0), scope)
        if config is None or context.index.qualify(config.func, scope) not in _LAUNCH_CONFIGS:
            return "spawn"  # LaunchConfig's default; a config built elsewhere is assumed to keep it
        return _literal(argument(config, *_LAUNCH_CONFIG_START_METHOD), "spawn")
    chosen = {
        _literal(argument(c, "method", 0), None) for c, _ in context.calls_to(*_SET_START_METHOD)
    }
    return chosen.pop() if len(chosen) == 1 else None


def _literal(expr: cst.BaseExpression | None, default: str | None) -> str | None:
    """A string literal's value, `default` when the argument is absent, None for any other
    expression."""
    if expr is None:
        return default
    if isinstance(expr, cst.SimpleString) and isinstance(expr.evaluated_value, str):
        return expr.evaluated_value
    return None


def _bound_call(
    context: FileContext, expr: cst.BaseExpression | None, scope: Scope
) -> cst.Call | None:
    """The call an expression is, or a name is bound to (`ctx = mp.get_context("spawn")`)."""
    for _ in range(_MAX_DEPTH):
        if isinstance(expr, cst.Call):
            return expr
        if not isinstance(expr, cst.Name):
            return None
        expr = context.index.lookup(expr.value, scope)
    return None
