"""SL108 seed-lost-in-spawn: seeded code starts a spawned process whose target never seeds."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

import libcst as cst

from seedlint.analysis.context import FileContext
from seedlint.analysis.flow import Effect, Event, Flow, Step, argument, divergence, exclusive
from seedlint.analysis.index import FunctionInfo, Scope, Statement
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Rule

# Start methods that run the target in a fresh interpreter (fork copies the parent's seeded state).
_FRESH_INTERPRETER_METHODS = frozenset({"spawn", "forkserver"})
_MAX_DEPTH = 12  # how far name aliases and chains of callers are followed


@dataclass(frozen=True)
class _Launcher:
    """Where a process-starting call takes its target, and where its start method comes from."""

    target: tuple[str, int]  # keyword, position
    # "argument": its own `start_method` (default "spawn"); "context": the `get_context(method)` it is
    # called on; "config": the `LaunchConfig` it gets (default "spawn"); "global": `set_start_method`.
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
_LAUNCH_CONFIGS = frozenset({"torch.distributed.launcher.api.LaunchConfig", "torch.distributed.launcher.LaunchConfig"})
_SPAWN_START_METHOD = ("start_method", 5)
_LAUNCH_CONFIG_START_METHOD = ("start_method", 12)  # its position in torch 2.13


class SeedLostInSpawn(Rule):
    code = "SL108"
    name = "seed-lost-in-spawn"
    summary = "Seeded code starts a spawn/forkserver process whose target never seeds"
    fix_availability = "display-only"
    patterns = (b"spawn", b"forkserver", b"start_processes", b"elastic_launch")

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.seeding_flows:
            return
        order = _ExecutionOrder(context)
        for call, scope in context.calls_to(*_LAUNCHERS):
            launcher = _LAUNCHERS[context.index.qualify(call.func, scope)]
            method = _start_method(context, call, scope, launcher)
            target = _local_target(context, call, scope, launcher)
            if method not in _FRESH_INTERPRETER_METHODS or target is None or _seeds_when_called(context, target):
                continue
            if any(order.seeded_before(flow, call) for flow in context.seeding_flows):
                yield _finding(context, call, target, method)


def _finding(context: FileContext, call: cst.Call, target: FunctionInfo, method: str) -> Finding:
    name = target.node.name.value
    help = f"Seed at the start of `{name}` (for example `torch.manual_seed(seed)`, with the seed passed in)"
    return Finding(
        call,
        f"`{context.code(call.func)}` runs `{name}` in a fresh interpreter ({method} start method) whose "
        f"generators are seeded at random, and `{name}` never seeds, so the seeding done here does not reach it "
        "and its results change from run to run",
        Fix(f"Seed inside `{name}`", Applicability.DISPLAY_ONLY),
        help=help,
    )


def _local_target(context: FileContext, call: cst.Call, scope: Scope, launcher: _Launcher) -> FunctionInfo | None:
    target = argument(call, *launcher.target)
    if target is None:
        return None
    return context.index.functions.get(context.index.qualify(target, scope))


def _start_method(context: FileContext, call: cst.Call, scope: Scope, launcher: _Launcher) -> str | None:
    """The start method a call uses, or None when it is not known (a variable, the platform's default)."""
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
    chosen = {_literal(argument(c, "method", 0), None) for c, _ in context.calls_to(*_SET_START_METHOD)}
    return chosen.pop() if len(chosen) == 1 else None


def _literal(expr: cst.BaseExpression | None, default: str | None) -> str | None:
    """A string literal's value, `default` when the argument is absent, None for any other expression."""
    if expr is None:
        return default
    if isinstance(expr, cst.SimpleString) and isinstance(expr.evaluated_value, str):
        return expr.evaluated_value
    return None


def _bound_call(context: FileContext, expr: cst.BaseExpression | None, scope: Scope) -> cst.Call | None:
    """The call an expression is, or a name is bound to (`ctx = mp.get_context("spawn")`)."""
    for _ in range(_MAX_DEPTH):
        if isinstance(expr, cst.Call):
            return expr
        if not isinstance(expr, cst.Name):
            return None
        expr = context.index.lookup(expr.value, scope)
    return None


def _seeds_when_called(context: FileContext, function: FunctionInfo) -> bool:
    """Whether running `function` seeds: as a flow of its own, on the way to a seed, or by itself."""
    index = context.index
    for flow in context.seeding_flows:
        if flow.root is function:
            return True
        for seed in flow.seeds():
            if any(step.call is not None and index.resolve_local_call(step.call, step.statement.scope) is function
                   for step in seed.trail):
                return True
    # Seeding that is itself random (SL106 reports it) still counts as seeding here.
    return any(scope is function.scope and (effect := context.classifier.effect(call, scope)) is not None
               and effect.kind in ("seed", "reseed") for call, scope in index.all_calls)


class _ExecutionOrder:
    """Places a call in a flow's execution order, to compare it with the flow's seeding events."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.index = context.index

    @cached_property
    def parents(self) -> dict[Statement, Statement]:
        """The compound statement around each nested statement, within its function."""
        parents: dict[Statement, Statement] = {}
        for block in self.index.statements.values():
            for statement in block:
                if not isinstance(statement.node, cst.FunctionDef):
                    for inner in self.index.blocks_of(statement.node):
                        parents.update((child, statement) for child in inner)
        return parents

    @cached_property
    def callers(self) -> dict[FunctionInfo, list[cst.Call]]:
        found: dict[FunctionInfo, list[cst.Call]] = {}
        for call, scope in self.index.all_calls:
            function = self.index.resolve_local_call(call, scope)
            if function is not None:
                found.setdefault(function, []).append(call)
        return found

    def seeded_before(self, flow: Flow, call: cst.Call) -> bool:
        """Whether `flow` runs `call` after one of its deterministic seeding calls."""
        seeds = flow.seeds()
        for trail in self._trails(call, flow.root, frozenset()):
            reached = Event(Effect("launch", "", frozenset()), call, trail)
            if any(self._runs_before(seed, reached) for seed in seeds):
                return True
        return False

    def _trails(self, call: cst.Call, root: FunctionInfo | None, active: frozenset) -> Iterator[tuple[Step, ...]]:
        """The trails (as in flow events) by which a flow from `root` reaches `call`."""
        statement = self.index.statement_of[call]
        path = [Step(statement, call)]
        while statement in self.parents:
            statement = self.parents[statement]
            path.insert(0, Step(statement, None))
        owner = self.index.function_of_scope.get(statement.scope)
        if owner is root:
            yield tuple(path)
        elif owner is not None and owner not in active and len(active) < _MAX_DEPTH:
            for caller in self.callers.get(owner, ()):
                for prefix in self._trails(caller, root, active | {owner}):
                    yield prefix + tuple(path)

    def _runs_before(self, first: Event, second: Event) -> bool:
        if exclusive(self.index, first, second):
            return False
        position = divergence(first, second)
        a, b = first.trail[position], second.trail[position]
        if a == b:
            return False
        if a.statement is b.statement:  # two calls of one statement, or its header then its body
            return _call_rank(a) < _call_rank(b)
        if a.statement.siblings is b.statement.siblings:
            return a.statement.position < b.statement.position
        suites = self.index.blocks_of(first.trail[position - 1].statement.node)
        return _suite_of(suites, a.statement) < _suite_of(suites, b.statement)


def _call_rank(step: Step) -> int:
    calls = step.statement.calls
    return calls.index(step.call) if step.call is not None else len(calls)


def _suite_of(suites: list[list[Statement]], statement: Statement) -> int:
    return next(k for k, suite in enumerate(suites) if statement in suite)
