"""The process environment and determinism switches a module sets: what SL303, SL304 and SL305 read."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis.arguments import argument, is_literal
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import Statement

# Calls that turn deterministic algorithms on, directly in torch: name -> (argument, its "off" spellings).
DETERMINISTIC_SWITCHES = {
    "torch.use_deterministic_algorithms": ("mode", frozenset({"False"})),
    "torch.set_deterministic_debug_mode": ("debug_mode", frozenset({"0", "'default'", '"default"'})),
}


def string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a string literal (not an f-string), or None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def environment_writes(context: FileContext, variable: str,
                       ) -> Iterator[tuple[Statement, cst.CSTNode, cst.BaseExpression | None]]:
    """(statement, node, value written) for every write of `variable` to the process environment.

    The forms: `os.environ[v] = x`, `os.environ.setdefault(v, x)`, `os.putenv(v, x)`,
    `os.environ.update(v=x)` and `os.environ.update({v: x})`.
    """
    index = context.index
    for statement, target, value in context.index.assignments():
        if (
            isinstance(statement.node, (cst.Assign, cst.AnnAssign))
            and isinstance(target, cst.Subscript)
            and len(target.slice) == 1
            and isinstance(target.slice[0].slice, cst.Index)
            and string_value(target.slice[0].slice.value) == variable
            and index.qualify(target.value, statement.scope) == "os.environ"
        ):
            yield statement, statement.node, value
    for call, _ in context.calls_to("os.environ.setdefault", "os.putenv", "os.environ.update"):
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "update":
            value = _updated_value(call, variable)
            if value is not None:
                yield context.index.statement_of[call], call, value
        elif string_value(argument(call, "key", 0)) == variable:
            yield context.index.statement_of[call], call, argument(call, "value", 1) or argument(call, "default", 1)


def _updated_value(call: cst.Call, variable: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == variable:
            return arg.value
        if arg.keyword is None and not arg.star and isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement) and string_value(element.key) == variable:
                    return element.value
    return None


def deterministic_switches(context: FileContext) -> Iterator[cst.Call]:
    """The calls to torch that turn deterministic algorithms on (any value but a literal off), in source order."""
    for call, scope in context.calls_to(*DETERMINISTIC_SWITCHES):
        keyword, off = DETERMINISTIC_SWITCHES[context.index.qualify(call.func, scope)]
        value = argument(call, keyword, 0)
        if value is not None and not is_literal(value, *off):
            yield call
