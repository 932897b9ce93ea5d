"""SL202 worker-rng-duplication: a dataset's RNG object is copied identically into every worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_none
from seedlint.analysis.branches import kept_attributes, parameter_values, ruled_out
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import ClassInfo, FunctionInfo, ModuleIndex, Scope
from seedlint.analysis.workers import (
    WorkerCode,
    WorkerInitFn,
    on_instance,
)
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

# Methods that give an RNG object a new state, and methods that read it without drawing.
_RESEED_METHODS = frozenset({"seed", "manual_seed", "set_state", "setstate"})
_NON_DRAWING_METHODS = _RESEED_METHODS | {
    "get_state",
    "getstate",
    "initial_seed",
    "bit_generator",
    "device",
    "graphsafe_get_state",
    "clone_state",
}
# Where the dataset's copy is used in a worker (`__getitems__`: batched fetching, torch >= 2.1).
_WORKER_METHODS = ("__getitem__", "__getitems__", "__iter__", "__next__")
_NUM_WORKERS_POSITION = (
    5  # DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, ...)
)
_MAX_DEPTH = 6


def _unaliased(index: ModuleIndex, expr: cst.BaseExpression, scope: Scope) -> cst.BaseExpression:
    """The attribute a function's local name is bound to (`rng = self.rng`), else `expr` itself."""
    if isinstance(expr, cst.Name) and scope.kind == "function":
        bound = index.lookup(expr.value, scope)
        return bound if isinstance(bound, cst.Attribute) else expr
    return expr


def _attribute_name(index: ModuleIndex, expr: cst.BaseExpression, scope: Scope) -> str | None:
    """`attr` when `expr` is `<anything>.attr`, or a local name bound to one."""
    expr = _unaliased(index, expr, scope)
    return expr.attr.value if isinstance(expr, cst.Attribute) else None


def _stored_attribute(index: ModuleIndex, expr: cst.BaseExpression, scope: Scope) -> str | None:
    """`attr` when `expr` is `self.attr` in a method, or a local name bound to it."""
    expr = _unaliased(index, expr, scope)
    if (
        isinstance(expr, cst.Attribute)
        and isinstance(expr.value, cst.Name)
        and expr.value.value == "self"
        and scope.owner_class is not None
    ):
        return expr.attr.value
    return None


# ----------------------------------------------------------------------- SL202
class WorkerRngDuplication(Rule):
    code = "SL202"
    name = "worker-rng-duplication"
    summary = "A dataset's RNG object is copied identically into every DataLoader worker"
    fix_availability = "display-only"
    patterns = ((b"DataLoader", b"num_workers"),)
    probe = Probe.WORKER_DUPLICATION

    def check(self, context: FileContext) -> Iterator[Finding]:
        index = context.index
        code = WorkerCode(index)
        # (dataset class, its flags) -> RNG attribute -> its constructor
        duplicated: dict[tuple[str, frozenset], dict[str, str]] = {}
        for call, scope in context.calls_to(*catalog.DATA_LOADERS):
            if any(arg.star for arg in call.args) or not _has_workers(index, call, scope):
                continue
            found = self._dataset_class(context, code, call, scope)
            if found is None:
                continue
            cls, defining = found
            flags = _flags(index, defining.index, cls, argument(call, "dataset", 0), scope)
            key = (cls.qualified, frozenset((name, repr(value)) for name, value in flags.items()))
            if key not in duplicated:
                duplicated[key] = self._drawn_rngs(defining, cls, flags)
            rngs = duplicated[key]
            worker_init = argument(call, "worker_init_fn", catalog.WORKER_INIT_FN_POSITION)
            init_fn = None
            if not is_none(worker_init):
                init_fn = code.worker_init_fn(worker_init, scope)
                if init_fn is None:
                    continue  # code seedlint cannot see may reseed it
                rngs = {
                    attr: constructor
                    for attr, constructor in rngs.items()
                    if not self._reseeds(code, cls, init_fn, attr)
                }
            if rngs:
                yield self._finding(context, call, cls, rngs, init_fn)

    # ------------------------------------------------------------- the dataset
    @staticmethod
    def _dataset_class(
        context: FileContext, code: WorkerCode, call: cst.Call, scope: Scope
    ) -> tuple[ClassInfo, WorkerCode] | None:
        """The `Dataset` class a loader's dataset is an instance of, here or in another project
        module, with the lookups of the module that defines it."""
        dataset = argument(call, "dataset", 0)
        instance = code.index.qualify(dataset, scope) if dataset is not None else None
        if not instance or not instance.endswith("()"):
            return None
        found = (code.index, code.index.classes.get(instance[:-2]))
        project = context.settings.project
        if found[1] is None and project is not None:
            found = project.class_definition(instance[:-2]) or (None, None)
        index, cls = found
        if cls is None or not _is_dataset(index, cls):
            return None
        return cls, (code if index is code.index else WorkerCode(index))

    def _drawn_rngs(
        self, code: WorkerCode, cls: ClassInfo, flags: dict[str, object]
    ) -> dict[str, str]:
        """The RNG objects stored on the dataset before the workers start and drawn from in them,
        on the sides of `if self.flag:` that the instance's `flags` allow."""
        index = code.index
        chain = _class_chain(index, cls)

        def runs(call: cst.Call, function: FunctionInfo) -> bool:
            return function.owner_class not in chain or not ruled_out(
                index, index.statement_of[call], {function.scope: flags}
            )

        in_worker = self._worker_functions(code, cls, runs)
        worker_scopes = {function.scope for function in in_worker}
        stored: dict[str, str] = {}  # attribute -> constructor
        remade: set[str] = set()
        for owner in chain:
            values = [
                (name, value, scope)
                for name, entries in owner.attributes.items()
                for value, scope in entries
            ]
            # class attributes: `rng = np.random.default_rng(0)`
            values += [
                (name, value, owner.scope)
                for name, value in owner.scope.bindings.items()
                if isinstance(value, cst.Call)
            ]
            for name, value, scope in values:
                if scope in worker_scopes:
                    remade.add(name)  # made again in the worker: `self.rng = default_rng(index)`
                elif (
                    constructor := catalog.RNG_INSTANCES.get(index.qualify(value, scope))
                ) is not None:
                    stored.setdefault(name, constructor)
        drawn, reseeded = set(), set()
        for function in in_worker:
            for call in code.calls(function):
                if not runs(call, function):
                    continue
                for attr, reseeds in self._uses(index, call, function.scope):
                    (reseeded if reseeds else drawn).add(attr)
        return {
            name: constructor
            for name, constructor in stored.items()
            if name in drawn - reseeded - remade
        }

    @staticmethod
    def _worker_functions(
        code: WorkerCode, cls: ClassInfo, runs: Callable[[cst.Call, FunctionInfo], bool]
    ) -> list[FunctionInfo]:
        """`__getitem__`/`__iter__`/... and the module-local functions and methods they call
        where `runs` says the call runs."""
        index = code.index
        pending = [m for name in _WORKER_METHODS if (m := index.find_method(cls, name)) is not None]
        found: list[FunctionInfo] = []
        depth = {function: 0 for function in pending}
        while pending:
            function = pending.pop()
            if function in found:
                continue
            found.append(function)
            for call in code.calls(function):
                if not runs(call, function):
                    continue
                target = index.resolve_local_call(call, function.scope)
                if target is not None and target not in depth and depth[function] < _MAX_DEPTH:
                    depth[target] = depth[function] + 1
                    pending.append(target)
        return found

    @staticmethod
    def _uses(index: ModuleIndex, call: cst.Call, scope: Scope) -> Iterator[tuple[str, bool]]:
        """(attribute, whether it is reseeded) for each stored object this call draws from or
        reseeds."""
        func = call.func
        if isinstance(func, cst.Attribute):
            attr = _stored_attribute(index, func.value, scope)
            if attr is not None and func.attr.value in _RESEED_METHODS:
                yield attr, True
            elif attr is not None and func.attr.value not in _NON_DRAWING_METHODS:
                yield attr, False
        callee = index.qualify(func, scope)
        # handed over to draw: `generator=self.g`
        if callee is None or not callee.startswith("builtins."):
            for arg in call.args:
                attr = _stored_attribute(index, arg.value, scope)
                if attr is not None:
                    yield attr, False

    # ------------------------------------------------------ the worker_init_fn
    def _reseeds(self, code: WorkerCode, cls: ClassInfo, init_fn: WorkerInitFn, attr: str) -> bool:
        """Whether the `worker_init_fn`, or what it calls, gives the worker's copy of `attr` a new
        state."""
        index = code.index
        pending: list[FunctionInfo | WorkerInitFn] = [init_fn]
        seen: set[FunctionInfo] = set()
        while pending:
            current = pending.pop()
            if any(target.attr.value == attr for target, _ in code.attribute_assignments(current)):
                return True
            scope = current.scope
            for call in code.calls(current):
                func = call.func
                if (
                    isinstance(func, cst.Attribute)
                    and func.attr.value in _RESEED_METHODS
                    and (_attribute_name(index, func.value, scope) == attr)
                ):
                    return True
                if _is_setattr(index, call, scope, attr):
                    return True
                target = index.resolve_local_call(call, scope)
                if (
                    target is None
                    and isinstance(func, cst.Attribute)
                    and on_instance(index, func.value, scope)
                ):
                    target = index.find_method(cls, func.attr.value)  # `info.dataset.reseed(..)`
                if target is not None and target not in seen and len(seen) < _MAX_DEPTH:
                    seen.add(target)
                    pending.append(target)
        return False

    # ----------------------------------------------------------------- finding
    @staticmethod
    def _finding(
        context: FileContext,
        call: cst.Call,
        cls: ClassInfo,
        rngs: dict[str, str],
        init_fn: WorkerInitFn | None,
    ) -> Finding:
        attributes = " and ".join(
            f"`self.{attr}` (`{constructor.replace('numpy.', 'np.')}`)"
            for attr, constructor in rngs.items()
        )
        plural = len(rngs) > 1
        them = "them" if plural else "it"
        reason = (
            f"its {init_fn.label} does not reseed {them}"
            if init_fn is not None
            else f"no `worker_init_fn` reseeds {them}"
        )
        reseeding = [
            catalog.RNG_CONSTRUCTORS[constructor].format(attr) for attr, constructor in rngs.items()
        ]
        recommended = "; ".join(["info = torch.utils.data.get_worker_info()", *reseeding])
        return Finding(
            call,
            f"`{context.code(call.func)}` gives each worker process an identical copy of "
            f"`{cls.node.name.value}` with its RNG object{'s' if plural else ''} {attributes}, "
            f"and {reason}, so every worker draws "
            'the same "random" values',
            Fix(
                f"Pass a `worker_init_fn` that reseeds the worker's copy: `{recommended}`",
                Applicability.DISPLAY_ONLY,
            ),
            help=f"Reseed {them} in every worker: `def seed_worker(worker_id): "
            f"{recommended}` and pass "
            "`worker_init_fn=seed_worker`",
        )


def _flags(
    index: ModuleIndex,
    defining: ModuleIndex,
    cls: ClassInfo,
    dataset: cst.BaseExpression | None,
    scope: Scope,
) -> dict[str, object]:
    """The known values of the dataset's `self.flag` attributes kept from its constructor's
    parameters, for the one construction a loader's dataset is bound to (`val_ds =
    Frames(root, augment=False)`, the defaults included); none when it is not seen."""
    if isinstance(dataset, cst.Name):
        bound = index.bound_values(dataset.value, scope)
        dataset = bound[0] if len(bound) == 1 and isinstance(bound[0], cst.Call) else None
    init = defining.find_method(cls, "__init__")
    if not isinstance(dataset, cst.Call) or init is None or init.owner_class is None:
        return {}
    return kept_attributes(init.owner_class, init, parameter_values(defining, init, dataset))


def _has_workers(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """Whether `num_workers` is given and not a literal 0 (directly or through a name)."""
    workers = argument(call, "num_workers", _NUM_WORKERS_POSITION)
    if isinstance(workers, cst.Name):
        bound = index.lookup(workers.value, scope)
        workers = bound if isinstance(bound, cst.Integer) else workers
    return workers is not None and not (
        isinstance(workers, cst.Integer) and int(workers.value, 0) == 0
    )


def _is_setattr(index: ModuleIndex, call: cst.Call, scope: Scope, attr: str) -> bool:
    args = call.args
    return (
        len(args) == 3
        and index.qualify(call.func, scope) == "builtins.setattr"
        and isinstance(args[1].value, cst.SimpleString)
        and args[1].value.evaluated_value == attr
    )


def _class_chain(index: ModuleIndex, cls: ClassInfo) -> list[ClassInfo]:
    """A class and its module-local bases, nearest first."""
    chain: list[ClassInfo] = []
    pending = [cls]
    while pending and len(chain) < _MAX_DEPTH * 2:
        current = pending.pop(0)
        if current not in chain:
            chain.append(current)
            pending.extend(index.classes[base] for base in current.bases if base in index.classes)
    return chain


def _is_dataset(index: ModuleIndex, cls: ClassInfo) -> bool:
    """Whether a class derives, through module-local bases, from `Dataset` or `IterableDataset`."""
    for owner in _class_chain(index, cls):
        for arg in owner.node.bases:
            # `Dataset[Tensor]`
            base = arg.value.value if isinstance(arg.value, cst.Subscript) else arg.value
            if index.qualify(base, owner.scope.parent) in catalog.DATASET_BASES:
                return True
    return False
