"""SL304 pythonhashseed-in-process: setting PYTHONHASHSEED from inside the program it should affect."""

from __future__ import annotations

from typing import Iterator


from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import environment_writes
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

