"""The process environment and determinism switches a module sets: what SL303, SL304 and SL305
read."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import Statement


def string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a string literal (not an f-string), or None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def environment_writes(
    context: FileContext,
    variable: str | Callable[[str], bool],
) -> Iterator[tuple[Statement, cst.CSTNode, cst.BaseExpression | None, str]]:
    """(statement, node, value written, name) for every write to the process environment of
    `variable` (a name, or a test of names).

    The forms: `os.environ[v] = x`, `os.environ.setdefault(v, x)`, `os.putenv(v, x)`,
    `os.environ.update(v=x)` and `os.environ.update({v: x})`.
    """
    wanted = variable.__eq__ if isinstance(variable, str) else variable
    index = context.index
    for statement, target, value in context.index.assignments():
        if (
            isinstance(statement.node, (cst.Assign, cst.AnnAssign))
            and isinstance(target, cst.Subscript)
            and len(target.slice) == 1
            and isinstance(target.slice[0].slice, cst.Index)
            and isinstance(name := string_value(target.slice[0].slice.value), str)
            and wanted(name)
            and index.qualify(target.value, statement.scope) == "os.environ"
        ):
            yield statement, statement.node, value, name
    for call, _ in context.calls_to("os.environ.setdefault", "os.putenv", "os.environ.update"):
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "update":
            for name, value in _updated(call):
                if wanted(name):
                    yield context.index.statement_of[call], call, value, name
        elif isinstance(name := string_value(argument(call, "key", 0)), str) and wanted(name):
            yield (
                context.index.statement_of[call],
                call,
                argument(call, "value", 1) or argument(call, "default", 1),
                name,
            )


def _updated(call: cst.Call) -> Iterator[tuple[str, cst.BaseExpression]]:
    """(name, value) of what an `os.environ.update(..)` call sets, by keyword or in a dict
    literal."""
    for arg in call.args:
        if arg.keyword is not None:
            yield arg.keyword.value, arg.value
        elif not arg.star and isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement) and isinstance(
                    name := string_value(element.key), str
                ):
                    yield name, element.value


def deterministic_switches(context: FileContext) -> Iterator[cst.Call]:
    """The calls to torch that turn deterministic algorithms on (any value but a literal off), in
    source order."""
    for call, scope in context.calls_to(*catalog.DETERMINISTIC_SWITCHES):
        switch = catalog.DETERMINISTIC_SWITCHES[context.index.qualify(call.func, scope)]
        value = argument(call, switch.keyword, 0)
        if value is not None and not is_literal(value, *switch.off):
            yield call


def deterministic_mode_on(context: FileContext) -> bool:
    """Whether the module turns deterministic algorithms on, itself or through a known helper.

    `warn_only=True` counts: the remaining nondeterministic ops then warn at run time, naming
    themselves.
    """
    if any(True for _ in deterministic_switches(context)):
        return True
    for qualified, keyword, position in catalog.DETERMINISTIC_HELPERS:
        for call, _ in context.calls_to(qualified):
            if keyword is None:
                return True
            value = argument(call, keyword, position)
            if value is not None and not is_literal(value, "False", "None"):
                return True
    return False
