"""SL304 pythonhashseed-in-process: setting PYTHONHASHSEED from inside the program it should
affect."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import environment_writes
from seedlint.analysis.index import FunctionInfo, Scope, Statement
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

_VARIABLE = "PYTHONHASHSEED"
# Calls that start a new interpreter, which does read the variable: setting it for them is the
# point.
_PROCESS_LAUNCHERS = (
    "os.exec",
    "os.spawn",
    "os.posix_spawn",
    "os.system",
    "os.popen",
    "subprocess.",
    "torch.multiprocessing.spawn",
    "torch.multiprocessing.start_processes",
)
_MESSAGE = (
    "Setting `PYTHONHASHSEED` inside the program does not affect the running interpreter, whose "
    "string hashing was fixed at start-up (only child processes started later see it), so sets of "
    "strings still iterate in a different order on every run"
)
_MISSPELLED = (
    "`{name}` is not a variable Python reads (it is `PYTHONHASHSEED` misspelled), so this line "
    "changes nothing, and even `PYTHONHASHSEED` set inside the program would not affect the "
    "running interpreter, whose string hashing was fixed at start-up"
)
_HELP = (
    "Set it before Python starts (`PYTHONHASHSEED=0 python "
    "train.py`), or sort sets before iterating them"
)
_FIX = Fix(
    "Set `PYTHONHASHSEED` in the environment that launches Python, or iterate `sorted(...)` sets",
    Applicability.DISPLAY_ONLY,
)
_MAX_DEPTH = 4


class _Launches:
    """Where the module starts new interpreters, which read the variable: setting it for them is the
    point."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.index = context.index
        self._in_function: dict[FunctionInfo, bool] = {}

    def after(self, statement: Statement, depth: int = 0) -> bool:
        """Whether an interpreter is started after `statement` runs: later in its own code (directly
        or through the module's functions), or by a caller after the call that leads to it."""
        start = self.context.layout.span(statement.node)[0]
        scope = statement.scope
        for call in self.index.calls_by_scope.get(scope, ()):
            if self.context.layout.span(call)[0] >= start and self._starts(call, scope, depth):
                return True
        function = self.index.function_of_scope.get(scope)
        if function is None or depth >= _MAX_DEPTH:
            return False
        return any(
            self.after(self.index.statement_of[call], depth + 1)
            for call, caller in self.index.all_calls
            if self.index.resolve_local_call(call, caller) is function
        )

    def _starts(self, call: cst.Call, scope: Scope, depth: int) -> bool:
        qualified = self.index.qualify(call.func, scope)
        if qualified is not None and qualified.startswith(_PROCESS_LAUNCHERS):
            return True
        function = self.index.resolve_local_call(call, scope)
        return function is not None and depth < _MAX_DEPTH and self._in(function, depth + 1)

    def _in(self, function: FunctionInfo, depth: int) -> bool:
        if function not in self._in_function:
            self._in_function[function] = False  # a recursive call adds nothing
            self._in_function[function] = any(
                self._starts(call, function.scope, depth)
                for call in self.index.calls_by_scope.get(function.scope, ())
            )
        return self._in_function[function]


class PythonHashSeedInProcess(Rule):
    code = "SL304"
    name = "pythonhashseed-in-process"
    summary = (
        "`PYTHONHASHSEED` set from inside the program, where it "
        "cannot change the running interpreter"
    )
    fix_availability = "display-only"
    # The variable or a misspelling (each swap of two letters leaves one of these), and a way to
    # write it.
    patterns = tuple(
        (spelling, writer)
        for spelling in (b"SEED", b"HASH", b"HASSHEED")
        for writer in (b"environ", b"putenv")
    )
    probe = Probe.HASH_ORDER

    def check(self, context: FileContext) -> Iterator[Finding]:
        launches = _Launches(context)
        for statement, node, _, name in environment_writes(context, _named_like_the_variable):
            if name != _VARIABLE:
                yield Finding(node, _MISSPELLED.format(name=name), _FIX, help=_HELP)
            elif not launches.after(statement):
                yield Finding(node, _MESSAGE, _FIX, help=_HELP)


def _named_like_the_variable(name: str) -> bool:
    """`PYTHONHASHSEED`, or the two misspellings of it found in real seeding helpers: separators
    between its words (`PYTHON_HASH_SEED`) and two neighbouring letters swapped (`PYHTONHASHSEED`,
    copied from a popular `seed_everything`). (Another name, `PYTHONHASHSEEDS`, may be a program's
    own; only the case changed is not counted: Windows reads `pythonhashseed` as the variable.)"""
    if name.upper() == _VARIABLE:
        return name == _VARIABLE
    letters = "".join(filter(str.isalpha, name))
    if letters == _VARIABLE:
        return True
    if len(letters) != len(_VARIABLE):
        return False
    wrong = [i for i, (a, b) in enumerate(zip(letters, _VARIABLE)) if a != b]
    return (
        len(wrong) == 2
        and wrong[1] == wrong[0] + 1
        and letters[wrong[0]] == _VARIABLE[wrong[1]]
        and letters[wrong[1]] == _VARIABLE[wrong[0]]
    )
