"""The modules a program imports that this interpreter lacks: said in one line before any run,
rather than as a traceback after two."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path


def missing_module(text: str, folder: Path) -> str | None:
    """The first module the program surely imports (at its top level or in its `__main__` block,
    outside a `try`) that neither its folder nor this interpreter has; None too when the program
    changes where modules are found (`sys.path.append('../toolbox')`): what it adds is unknown."""
    if "sys.path" in text or "addsitedir" in text:
        return None
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError):
        return None
    for name in _surely_imported(body):
        top = name.partition(".")[0]
        if top in sys.builtin_module_names or top in sys.stdlib_module_names:
            continue
        try:
            if importlib.machinery.PathFinder.find_spec(top, [str(folder)]) is not None:
                continue  # a module of the program's own folder (`python train.py` finds it)
            if importlib.util.find_spec(top) is None:
                return top
        except (ImportError, ValueError):
            continue
    return None


def _surely_imported(body: list[ast.stmt]) -> Iterator[str]:
    """The absolute imports that run whenever the program does: not those in a function, in an `if`
    other than the `__main__` guard, or guarded by a `try` (the program's own fallback)."""
    for statement in body:
        if isinstance(statement, ast.Import):
            yield from (alias.name for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            if statement.level == 0 and statement.module and statement.module != "__future__":
                yield statement.module
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from _surely_imported(statement.body)
        elif isinstance(statement, ast.Try) and not statement.handlers:
            yield from _surely_imported(statement.body)
        elif isinstance(statement, ast.If) and is_main_guard(statement.test):
            yield from _surely_imported(statement.body)


def is_main_guard(test: ast.expr) -> bool:
    """Whether an `if`'s test is `__name__ == "__main__"`."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )
