"""Text edits of one file that keep its layout: replace a node, insert or move whole-line statements
with their indentation and line endings, pass a keyword, and spell a library name (adding its import
where none binds it). The building blocks of every fix, apart from the analysis (as ruff keeps its
edits and importer apart from the semantic model)."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from seedlint.analysis.bindings import defined_at
from seedlint.analysis.events import Event
from seedlint.analysis.index import ModuleIndex, Statement
from seedlint.diagnostics import Edit
from seedlint.parsing import Layout
from seedlint.source import SourceText

# The import each library gets when a fix needs it and the file has none.
_DEFAULT_IMPORTS = {"torch": ("torch", None), "numpy": ("numpy", "np"), "random": ("random", None)}


class Editor:
    """Edits of one parsed text (`index` gives the module's index, built when an import must be
    placed)."""

    def __init__(
        self, source: SourceText, layout: Layout, index: Callable[[], ModuleIndex]
    ) -> None:
        self.source = source
        self.layout = layout
        self.module = layout.module
        self._index = index

    @property
    def index(self) -> ModuleIndex:
        return self._index()

    def replace(self, node: cst.CSTNode, content: str) -> Edit:
        start, end = self.layout.span(node)
        return Edit(start, end, content)

    def _line_layout(self, statement: Statement) -> tuple[int, int, str] | None:
        """(start offset, end offset, indentation) of a statement that has its lines to itself."""
        line = statement.line
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) != 1:
            return None
        if isinstance(line, cst.SimpleStatementSuite):
            return None
        found = self._line_start(statement)
        if found is None:
            return None
        row_start, indentation = found
        end_row = self.source.location(self.layout.span(line)[1]).row
        next_row = (
            self.source.offset(end_row + 1, 0)
            if end_row < len(self.source.line_starts)
            else len(self.source.text)
        )
        return row_start, next_row, indentation

    def _line_start(self, statement: Statement) -> tuple[int, str] | None:
        """(offset, indentation) of the line a statement's line starts, when nothing is before it on
        that line."""
        start = self.layout.span(statement.line)[0]
        row_start = (
            max(self.source.text.rfind("\n", 0, start), self.source.text.rfind("\r", 0, start)) + 1
        )
        indentation = self.source.text[row_start:start]
        return None if indentation.strip() else (row_start, indentation)

    def indentation(self, statement: Statement) -> str:
        """The indentation of a statement's line ("" when something is before it on the line)."""
        found = self._line_start(statement)
        return found[1] if found is not None else ""

    def insert_before(self, statement: Statement, code: str) -> Edit | None:
        """Insert a statement just before another, on its own lines with the same indentation (a
        compound statement's lines, `\n`-separated, are indented from there)."""
        layout = self._line_layout(statement)
        if layout is None and "\n" not in code:
            start, _ = self.layout.span(statement.node)
            return Edit(start, start, f"{code}; ")
        found = layout[::2] if layout is not None else self._line_start(statement)
        if found is None:
            return None  # a compound statement cannot join a line that holds others
        row_start, indentation = found
        lines = f"{self.source.newline}{indentation}".join(code.split("\n"))
        return Edit(row_start, row_start, f"{indentation}{lines}{self.source.newline}")

    def insert_after(self, statement: Statement, code: str) -> Edit:
        """Insert statements (`\n`-separated) just after another, on their own lines with the same
        indentation."""
        layout = self._line_layout(statement)
        if layout is None:
            _, end = self.layout.span(statement.node)
            return Edit(end, end, "; " + "; ".join(code.split("\n")))
        _, next_row, indentation = layout
        newline = self.source.newline
        prefix = "" if self.source.text[:next_row].endswith(("\n", "\r")) else newline
        lines = f"{newline}{indentation}".join(code.split("\n"))
        return Edit(next_row, next_row, f"{prefix}{indentation}{lines}{newline}")

    def keyword_edit(self, call: cst.Call, name: str, value: str) -> Edit:
        """Pass `name=value` to a call: replace the value it is given (`seed=None`), or add it
        last."""
        given = next(
            (arg for arg in call.args if arg.keyword is not None and arg.keyword.value == name),
            None,
        )
        if given is not None:
            return self.replace(given.value, value)
        end = (
            self.layout.span(call.args[-1].value)[1] if call.args else self.layout.span(call)[1] - 1
        )
        return Edit(end, end, f"{', ' if call.args else ''}{name}={value}")

    def move_before(self, statement: Statement, target: Statement) -> tuple[Edit, ...] | None:
        """Edits that move a whole-line statement to just before another in the same block."""
        moved, destination = self._line_layout(statement), self._line_layout(target)
        if moved is None or destination is None:
            return None
        start, end, _ = moved
        text = self.source.text[start:end]
        if not text.endswith(("\n", "\r")):
            text += self.source.newline
        return (Edit(destination[0], destination[0], text), Edit(start, end, ""))

    # ----------------------------------------------------------------- imports
    def reference(self, qualified: str, at: Event | None = None) -> tuple[str, Edit | None]:
        """How to spell `qualified` in this file, and the import to add when nothing binds it.

        With `at`, only names already bound where that event runs are reused.
        """
        bindings = self.index.module_scope.bindings
        available = (
            defined_at(self.index, at.trail[:-1], at.statement) if at is not None else bindings
        )
        best: tuple[int, str] | None = None
        for local, bound in bindings.items():
            if not isinstance(bound, str) or bound.startswith("<") or local not in available:
                continue
            if qualified == bound or qualified.startswith(bound + "."):
                if best is None or len(bound) > best[0]:
                    best = (len(bound), local + qualified[len(bound) :])
        if best is not None:
            return best[1], None
        library = qualified.split(".")[0]
        module, alias = _DEFAULT_IMPORTS.get(library, (library, None))
        local = alias or module
        if bindings.get(local, module) != module:
            local = f"_{local}"
            alias = local
        statement = f"import {module} as {alias}" if alias else f"import {module}"
        return local + qualified[len(library) :], self._import_edit(statement)

    def _import_edit(self, statement: str) -> Edit:
        body = self.module.body
        anchor = None
        for position, line in enumerate(body):
            if isinstance(line, cst.SimpleStatementLine) and all(
                isinstance(small, (cst.Import, cst.ImportFrom)) for small in line.body
            ):
                anchor = line
            elif position == 0 and _is_docstring(line):
                anchor = line
            else:
                break
        newline = self.source.newline
        if anchor is None:
            start = self.layout.span(body[0])[0] if body else len(self.source.text)
            row_start = self.source.offset(self.source.location(start).row, 0)
            return Edit(row_start, row_start, f"{statement}{newline}")
        _, end = self.layout.span(anchor)
        end_row = self.source.location(end).row
        offset = (
            self.source.offset(end_row + 1, 0)
            if end_row < len(self.source.line_starts)
            else len(self.source.text)
        )
        prefix = "" if self.source.text[:offset].endswith(("\n", "\r")) else newline
        return Edit(offset, offset, f"{prefix}{statement}{newline}")


def _is_docstring(line: cst.CSTNode) -> bool:
    return (
        isinstance(line, cst.SimpleStatementLine)
        and isinstance(line.body[0], cst.Expr)
        and isinstance(line.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )
