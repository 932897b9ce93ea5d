"""Which names a statement reads, and which are already bound at a point of a flow.

Used to decide whether a statement can move earlier: it may only when every name it
reads is already defined at its new place.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis.access_paths import read_paths
from seedlint.analysis.events import Step
from seedlint.analysis.index import (
    BUILTIN_NAMES,
    FunctionInfo,
    ModuleIndex,
    Statement,
    _target_names,
    parameter_names,
)


def read_names(node: cst.CSTNode) -> set[str]:
    """Names a statement reads (not attribute names, keyword names or names it assigns)."""
    return {path.split(".", 1)[0] for path in read_paths(node)}


def names_needed(index: ModuleIndex, statement: Statement) -> set[str]:
    """Names a statement reads, with the globals read by the module's functions it calls."""
    names = read_names(statement.node)
    seen: set[FunctionInfo] = set()
    pending = [(call, statement.scope) for call in statement.calls]
    while pending:
        call, scope = pending.pop()
        function = index.resolve_local_call(call, scope)
        if function is None or function in seen:
            continue
        seen.add(function)
        names |= read_names(function.node.body) - set(function.scope.bindings)
        pending.extend(
            (inner, function.scope) for inner in index.calls_by_scope.get(function.scope, ())
        )
    return names


def bound_by(statement: Statement) -> Iterator[str]:
    """Names a statement binds in its scope."""
    node = statement.node
    if isinstance(node, cst.Assign):
        for target in node.targets:
            yield from _target_names(target.target)
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        yield from _target_names(node.target)
    elif isinstance(node, cst.Import):
        for alias in node.names:
            yield alias.asname.name.value if alias.asname else _root(alias.name)
    elif isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
        for alias in node.names:
            yield alias.asname.name.value if alias.asname else _root(alias.name)
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        yield node.name.value
    elif isinstance(node, cst.For):
        yield from _target_names(node.target)
    elif isinstance(node, cst.With):
        for item in node.items:
            if item.asname is not None:
                yield from _target_names(item.asname.name)


def _root(node: cst.BaseExpression) -> str:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""


def bound_in(index: ModuleIndex, statements: list[Statement]) -> set[str]:
    """Names the statements bind, in their blocks too (not in the functions and classes they
    define)."""
    names: set[str] = set()
    for statement in statements:
        names.update(bound_by(statement))
        if not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
            for block in index.blocks_of(statement.node):
                names |= bound_in(index, block)
    return names


def defined_at(index: ModuleIndex, trail: tuple[Step, ...], statement: Statement) -> set[str]:
    """Names certainly or possibly bound just before `statement`, which `trail` leads into."""
    names = set(BUILTIN_NAMES)
    scope = statement.scope
    for step in (*trail, Step(statement, None)):
        if step.statement.scope is scope:
            names |= bound_in(index, step.statement.siblings[: step.statement.position])
    if scope.kind == "function":
        parameters = parameter_names(scope.node)
        names |= {
            name for name, value in scope.bindings.items() if value is None and name in parameters
        }
        names |= set(index.module_scope.bindings)
    return names
