"""What a DataLoader's workers run: the `worker_init_fn` a loader gets, and the code it runs.

Shared by SL202 (does it reseed the dataset's RNG objects?) and SL203 (does it seed with a
value that differs per worker?).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_none
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Scope
from seedlint.analysis.project import ProjectIndex
from seedlint.analysis.walk import iter_descendants
from seedlint.gates import MAY_SEED

_PARTIAL = frozenset({"functools.partial"})
AssignedValue = cst.BaseExpression | None


@dataclass(frozen=True, eq=False)
class WorkerInitFn:
    """The code a `worker_init_fn=` argument runs: a module-local function or a lambda."""

    node: cst.FunctionDef | cst.Lambda
    scope: Scope  # where its names resolve: the function's scope, or the scope around the lambda
    function: FunctionInfo | None  # None for a lambda
    worker_parameters: frozenset[str]  # the parameter that receives the worker id
    # parameters fixed when the loader is built (defaults, partial)
    other_parameters: frozenset[str]

    @property
    def label(self) -> str:
        if self.function is None:
            return "`worker_init_fn` lambda"
        name = self.node.name.value
        return "`worker_init_fn`" if name == "worker_init_fn" else f"`worker_init_fn` `{name}`"


class WorkerCode:
    """Per-file lookups both worker rules need: calls and `x.attr = ..` targets by scope."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index

    @cached_property
    def _attribute_assignments(self) -> dict[Scope, list[tuple[cst.Attribute, AssignedValue]]]:
        grouped: dict[Scope, list[tuple[cst.Attribute, AssignedValue]]] = {}
        for statement, target, value in self.index.assignments():
            if isinstance(target, cst.Attribute):
                grouped.setdefault(statement.scope, []).append((target, value))
        return grouped

    def calls(self, code: FunctionInfo | WorkerInitFn) -> list[cst.Call]:
        """The calls a function or `worker_init_fn` makes itself (not those of nested functions)."""
        if isinstance(code, WorkerInitFn) and code.function is None:
            return [
                node
                for node in (code.node.body, *iter_descendants(code.node.body))
                if isinstance(node, cst.Call)
            ]
        function = code.function if isinstance(code, WorkerInitFn) else code
        return self.index.calls_by_scope.get(function.scope, [])

    def attribute_assignments(
        self, code: FunctionInfo | WorkerInitFn
    ) -> list[tuple[cst.Attribute, AssignedValue]]:
        """`x.attr = value` assignments a function makes (a lambda makes none)."""
        function = code.function if isinstance(code, WorkerInitFn) else code
        return self._attribute_assignments.get(function.scope, []) if function is not None else []

    # ------------------------------------------------------------ worker_init_fn
    def worker_init_fn(self, expr: cst.BaseExpression, scope: Scope) -> WorkerInitFn | None:
        """What a `worker_init_fn=` argument runs, when it is a module-local function or a
        lambda."""
        expr, bound_positionally, bound_by_name = self._unwrapped(expr, scope)
        if isinstance(expr, cst.Lambda):
            return _worker_init_fn(
                expr, scope, None, expr.params, False, bound_positionally, bound_by_name
            )
        function = self._function(expr, scope)
        if function is None:
            return None
        is_method = function.owner_class is not None and not any(
            isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
            for d in function.node.decorators
        )
        return _worker_init_fn(
            function.node,
            function.scope,
            function,
            function.node.params,
            is_method,
            bound_positionally,
            bound_by_name,
        )

    def imported_worker_init_fn(
        self,
        expr: cst.BaseExpression,
        scope: Scope,
        project: ProjectIndex,
    ) -> tuple[WorkerCode, WorkerInitFn] | None:
        """The function of another project module a `worker_init_fn=` argument runs (`from utils
        import worker_init_fn`, or a `partial` of one), with the lookups of its module; read only
        from a module that can seed."""
        expr, bound_positionally, bound_by_name = self._unwrapped(expr, scope)
        qualified = self.index.qualify(expr, scope)
        found = (
            project.function(qualified, MAY_SEED)
            if qualified is not None and "()" not in qualified
            else None
        )
        if found is None or found[0] is self.index or found[1].owner_class is not None:
            return None
        index, function = found
        return WorkerCode(index), _worker_init_fn(
            function.node,
            function.scope,
            function,
            function.node.params,
            False,
            bound_positionally,
            bound_by_name,
        )

    def _unwrapped(
        self, expr: cst.BaseExpression, scope: Scope
    ) -> tuple[cst.BaseExpression, int, frozenset[str]]:
        """The function or lambda a `worker_init_fn=` argument names, and how many of its parameters
        a `partial(..)` fills by position and which by name."""
        bound_positionally, bound_by_name = 0, frozenset()
        expr = self._bound_value(expr, scope)
        if (
            isinstance(expr, cst.Call)
            and self.index.qualify(expr.func, scope) in _PARTIAL
            and expr.args
        ):
            bound_positionally = sum(
                1 for arg in expr.args[1:] if arg.keyword is None and not arg.star
            )
            bound_by_name = frozenset(
                arg.keyword.value for arg in expr.args if arg.keyword is not None
            )
            expr = self._bound_value(expr.args[0].value, scope)
        return expr, bound_positionally, bound_by_name

    def _bound_value(self, expr: cst.BaseExpression, scope: Scope) -> cst.BaseExpression:
        """The lambda or `partial(..)` a name is bound to (`init = partial(seed_worker, ..)`), else
        `expr`."""
        if isinstance(expr, cst.Name):
            bound = self.index.lookup(expr.value, scope)
            if isinstance(bound, (cst.Lambda, cst.Call)):
                return bound
        return expr

    def _function(self, expr: cst.BaseExpression, scope: Scope) -> FunctionInfo | None:
        qualified = self.index.qualify(expr, scope)
        if qualified is None:
            return None
        if qualified in self.index.functions:
            return self.index.functions[qualified]
        owner, _, method = qualified.rpartition("().")
        cls = self.index.classes.get(owner)
        return self.index.find_method(cls, method) if cls is not None and method else None

    def loader_worker_init_fns(self) -> Iterator[tuple[cst.BaseExpression, Scope]]:
        """Every `worker_init_fn` argument: the keyword on any call, or by position to a
        DataLoader."""
        for call, scope in self.index.all_calls:
            if any(
                arg.keyword is not None and arg.keyword.value == "worker_init_fn"
                for arg in call.args
            ) or (self.index.qualify(call.func, scope) in catalog.DATA_LOADERS):
                value = argument(call, "worker_init_fn", catalog.WORKER_INIT_FN_POSITION)
                if not is_none(value):
                    yield value, scope


def _worker_init_fn(
    node: cst.FunctionDef | cst.Lambda,
    scope: Scope,
    function: FunctionInfo | None,
    params: cst.Parameters,
    is_method: bool,
    bound_positionally: int,
    bound_by_name: frozenset[str],
) -> WorkerInitFn:
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    everything = {*positional, *(p.name.value for p in params.kwonly_params)}
    for extra in (params.star_arg, params.star_kwarg):
        if isinstance(extra, cst.Param):
            everything.add(extra.name.value)
    callers = positional[int(is_method) :]  # what the loader and `partial` fill, `self` excluded
    free = [name for name in callers[bound_positionally:] if name not in bound_by_name]
    if not free and isinstance(params.star_arg, cst.Param):
        free = [params.star_arg.name.value]  # `def init(*args)`: the worker id is `args[0]`
    worker = frozenset(free[:1])
    return WorkerInitFn(node, scope, function, worker, frozenset(everything - worker))


def on_instance(index: ModuleIndex, expr: cst.BaseExpression, scope: Scope) -> bool:
    """Whether `expr` may be an object (`info.dataset.rng`, `self.g`), not a module like
    `np.random`."""
    qualified = index.qualify(expr, scope)
    return isinstance(expr, (cst.Attribute, cst.Name)) and (qualified is None or "()" in qualified)
