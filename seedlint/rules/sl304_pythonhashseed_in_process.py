"""SL304 pythonhashseed-in-process: setting PYTHONHASHSEED from inside the program it should affect."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from seedlint.analysis.context import FileContext
from seedlint.analysis.flow import argument
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Rule

_VARIABLE = "PYTHONHASHSEED"
# Calls that start a new interpreter, which does read the variable: setting it for them is the point.
_PROCESS_LAUNCHERS = ("os.exec", "os.spawn", "os.posix_spawn", "os.system", "os.popen", "subprocess.")
_MESSAGE = (
    "Setting `PYTHONHASHSEED` inside the program does not affect the running interpreter, whose string "
    "hashing was fixed at start-up (only child processes started later see it), so sets of strings still "
    "iterate in a different order on every run"
)
_HELP = "Set it before Python starts (`PYTHONHASHSEED=0 python train.py`), or sort sets before iterating them"
_FIX = Fix("Set `PYTHONHASHSEED` in the environment that launches Python, or iterate `sorted(...)` sets",
           Applicability.DISPLAY_ONLY)


def string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a string literal (not an f-string), or None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def environment_writes(context: FileContext, variable: str) -> Iterator[tuple[cst.CSTNode, cst.BaseExpression | None]]:
    """(node, value written) for every write of `variable` to the process environment.

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
            yield statement.node, value
    for call, _ in context.calls_to("os.environ.setdefault", "os.putenv", "os.environ.update"):
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "update":
            value = _updated_value(call, variable)
            if value is not None:
                yield call, value
        elif string_value(argument(call, "key", 0)) == variable:
            yield call, argument(call, "value", 1) or argument(call, "default", 1)


def _updated_value(call: cst.Call, variable: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == variable:
            return arg.value
        if arg.keyword is None and not arg.star and isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement) and string_value(element.key) == variable:
                    return element.value
    return None


def _launches_processes(context: FileContext) -> bool:
    index = context.index
    return any(
        (qualified := index.qualify(call.func, scope)) is not None and qualified.startswith(_PROCESS_LAUNCHERS)
        for call, scope in index.all_calls
    )


class PythonHashSeedInProcess(Rule):
    code = "SL304"
    name = "pythonhashseed-in-process"
    summary = "`PYTHONHASHSEED` set from inside the program, where it cannot change the running interpreter"
    fix_availability = "display-only"
    patterns = (_VARIABLE.encode(),)

    def check(self, context: FileContext) -> Iterator[Finding]:
        writes = list(environment_writes(context, _VARIABLE))
        if not writes or _launches_processes(context):
            return
        for node, _ in writes:
            yield Finding(node, _MESSAGE, _FIX, help=_HELP)

