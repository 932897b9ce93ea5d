"""SL201 missing-set-epoch: a shuffling DistributedSampler reused every epoch without `set_epoch`."""

from __future__ import annotations

from typing import Iterable, Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal, is_none
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Statement, bind_arguments
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Rule

_SHUFFLE_POSITION = 3  # DistributedSampler(dataset, num_replicas, rank, shuffle, seed, drop_last)
_LOADER_SAMPLER_POSITION = 3  # DataLoader(dataset, batch_size, shuffle, sampler, ...)
_MAX_DEPTH = 6


class _Handles:
    """The expressions (as written) that hold a shuffling DistributedSampler or a loader over one."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.samplers: set[str] = set()
        self.loaders: dict[str, str] = {}  # loader -> the sampler to call set_epoch on

    def __bool__(self) -> bool:
        return bool(self.samplers or self.loaders)

    def held(self, node: cst.CSTNode) -> str | None:
        """The sampler expression to call `set_epoch` on, when `node` holds one."""
        code = self.context.code(node)
        if code in self.samplers:
            return code
        return self.loaders.get(code)

    def sampler_of(self, receiver: cst.BaseExpression) -> str | None:
        """The sampler a `set_epoch` receiver is known to be: a sampler, or `loader.sampler`."""
        if isinstance(receiver, cst.Attribute) and receiver.attr.value == "sampler":
            return self.loaders.get(self.context.code(receiver.value)) or self.held(receiver)
        return self.held(receiver)


class MissingSetEpoch(Rule):
    code = "SL201"
    name = "missing-set-epoch"
    summary = "A shuffling DistributedSampler is iterated every epoch without `set_epoch`"
    fix_availability = "safe"
    patterns = (b"DistributedSampler",)

    def check(self, context: FileContext) -> Iterator[Finding]:
        handles = self._handles(context)
        if not handles:
            return
        index = context.index
        loops = [s for block in index.statements.values() for s in block if isinstance(s.node, (cst.For, cst.While))]
        epoch_loops = {}
        for loop in loops:
            if self._iteration(context, loop, handles) is None:
                held = self._iterates(context, index.blocks_of(loop.node), handles, set(), 0)
                if held is not None:
                    epoch_loops[loop] = held
        for loop, held in epoch_loops.items():
            enclosing = [other for other in epoch_loops if other is loop or loop in self._inside(index, other)]
            if any(other is not loop and other in self._inside(index, loop) for other in epoch_loops):
                continue  # report the innermost epoch loop only
            if any(self._sets_epoch(context, index.blocks_of(other.node), handles, held, set(), 0) for other in enclosing):
                continue
            node = loop.node
            yield Finding(
                node,
                "this epoch loop never calls `set_epoch` on its shuffling `DistributedSampler`, so every epoch "
                "visits the data in the same order (a training-quality bug: no reshuffling between epochs, "
                "not run-to-run nondeterminism)",
                self._fix(context, loop, held),
                help=f"Call `{held}.set_epoch(epoch)` at the start of every epoch",
                end_node=node.iter if isinstance(node, cst.For) else node.test,
            )

    # ------------------------------------------------------------------ handles
    def _handles(self, context: FileContext) -> _Handles:
        index = context.index
        samplers = set(catalog.DISTRIBUTED_SAMPLERS) | {
            cls.qualified for cls in index.classes.values() if index.subclasses_of(cls, catalog.DISTRIBUTED_SAMPLERS)
        }
        handles = _Handles(context)
        created = set()
        for call, scope in index.all_calls:
            qualified = index.qualify(call.func, scope)
            if qualified in samplers and not is_literal(argument(call, "shuffle", _SHUFFLE_POSITION), "False"):
                created.add(call)
                handles.samplers.update(self._targets(context, call))
        if not created:
            return handles
        for call, scope in index.all_calls:
            if index.qualify(call.func, scope) in catalog.DATA_LOADERS:
                sampler = argument(call, "sampler", _LOADER_SAMPLER_POSITION)
                if sampler is None or is_none(sampler):
                    continue
                returned = isinstance(index.statement_of[call].node, cst.Return)
                by_name = context.code(sampler) in handles.samplers and not returned
                if sampler in created or context.code(sampler) in handles.samplers:
                    for target in self._targets(context, call):
                        handles.loaders[target] = context.code(sampler) if by_name else f"{target}.sampler"
        return handles

    @staticmethod
    def _targets(context: FileContext, call: cst.Call) -> set[str]:
        """Where a call's result is stored: `x = call`, or the names `f()` returns it into."""
        statement = context.index.statement_of[call]
        node = statement.node
        if isinstance(node, cst.Assign) and node.value is call:
            return {context.code(target.target) for target in node.targets}
        if isinstance(node, cst.Return) and node.value is call:
            function = context.index.function_of_scope.get(statement.scope)
            if function is not None:
                return {
                    context.code(assign.targets[0].target)
                    for other, scope in context.index.all_calls
                    if context.index.qualify(other.func, scope) == function.qualified
                    and isinstance(assign := context.index.statement_of[other].node, cst.Assign)
                    and assign.value is other
                }
        return set()

    # ---------------------------------------------------------------- iteration
    def _iteration(self, context: FileContext, statement: Statement, handles: _Handles) -> str | None:
        """The sampler a `for` statement iterates (directly, or as `enumerate(loader)`, `tqdm(loader)`...)."""
        node = statement.node
        if not isinstance(node, cst.For):
            return None
        candidates = [node.iter]
        if isinstance(node.iter, cst.Call):
            candidates.extend(arg.value for arg in node.iter.args)
        return next((held for c in candidates if (held := handles.held(c)) is not None), None)

    def _iterates(self, context: FileContext, blocks: Iterable[list[Statement]], handles: _Handles,
                  active: set[FunctionInfo], depth: int) -> str | None:
        """The sampler that code iterates, looking into the module's functions it calls."""
        index = context.index
        for block in blocks:
            for statement in block:
                if isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    continue
                held = self._iteration(context, statement, handles)
                if held is not None:
                    return held
                for call in statement.calls:
                    held = self._iterates_in_call(context, call, statement, handles, active, depth)
                    if held is not None:
                        return held
                held = self._iterates(context, index.blocks_of(statement.node), handles, active, depth)
                if held is not None:
                    return held
        return None

    def _iterates_in_call(self, context: FileContext, call: cst.Call, statement: Statement, handles: _Handles,
                          active: set[FunctionInfo], depth: int) -> str | None:
        index = context.index
        if isinstance(call.func, cst.Name) and call.func.value == "iter" and call.args:
            held = handles.held(call.args[0].value)
            if held is not None:
                return held
        target = index.resolve_local_call(call, statement.scope)
        if target is None or target in active or depth >= _MAX_DEPTH:
            return None
        inner = _Handles(context)
        inner.samplers, inner.loaders = set(handles.samplers), dict(handles.loaders)
        passed = {}
        for parameter, arg in bind_arguments(target, call):
            held = handles.held(arg)
            if held is not None:
                inner.samplers.add(parameter)
                passed[parameter] = held
        held = self._iterates(context, index.blocks_of(target.node), inner, active | {target}, depth + 1)
        return passed.get(held, held) if held is not None else None

    # --------------------------------------------------------------- set_epoch
    def _sets_epoch(self, context: FileContext, blocks: Iterable[list[Statement]], handles: _Handles, held: str,
                    active: set[FunctionInfo], depth: int) -> bool:
        """Whether code calls `set_epoch` on the sampler `held` (or on a receiver not known to be another)."""
        index = context.index
        for block in blocks:
            for statement in block:
                if isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    continue
                for call in statement.calls:
                    receiver = _set_epoch_receiver(call)
                    if receiver is not None and handles.sampler_of(receiver) in (None, held):
                        return True
                    target = index.resolve_local_call(call, statement.scope)
                    if target is not None and target not in active and depth < _MAX_DEPTH and self._sets_epoch(
                        context, index.blocks_of(target.node), handles, held, active | {target}, depth + 1
                    ):
                        return True
                if self._sets_epoch(context, index.blocks_of(statement.node), handles, held, active, depth):
                    return True
        return False

    @staticmethod
    def _inside(index: ModuleIndex, loop: Statement) -> set[Statement]:
        found: set[Statement] = set()
        pending = list(index.blocks_of(loop.node))
        while pending:
            for statement in pending.pop():
                found.add(statement)
                if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    pending.extend(index.blocks_of(statement.node))
        return found

    # --------------------------------------------------------------------- fix
    @staticmethod
    def _fix(context: FileContext, loop: Statement, held: str) -> Fix:
        node = loop.node
        body = context.index.statements.get(node.body, [])
        if not isinstance(node, cst.For) or not isinstance(node.target, cst.Name) or not body or not isinstance(
            node.body, cst.IndentedBlock
        ):
            return Fix(f"Call `{held}.set_epoch(epoch)` at the start of every epoch", Applicability.DISPLAY_ONLY)
        code = f"{held}.set_epoch({node.target.value})"
        return Fix(f"Insert `{code}`", Applicability.SAFE, (context.insert_before(body[0], code),))


def _set_epoch_receiver(call: cst.Call) -> cst.BaseExpression | None:
    """`x` in `x.set_epoch(..)` or `getattr(x, "set_epoch")` (the hasattr-guarded form)."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "set_epoch":
        return call.func.value
    if (
        isinstance(call.func, cst.Name)
        and call.func.value == "getattr"
        and len(call.args) >= 2
        and isinstance(call.args[1].value, cst.SimpleString)
        and call.args[1].value.evaluated_value == "set_epoch"
    ):
        return call.args[0].value
    return None
