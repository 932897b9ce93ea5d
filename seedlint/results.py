"""The outcome of linting one file: its findings, its text after the fixes, what the analysis
read."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from seedlint.diagnostics import Diagnostic
from seedlint.notebook import Program
from seedlint.source import SourceText


@dataclass
class LintResult:
    """The outcome of linting one file."""

    path: Path
    diagnostics: list[Diagnostic]
    source: SourceText | None = None  # the final text (after fixes), None when unreadable
    original: str | None = None
    fixed: Counter = field(default_factory=Counter)  # code -> number of findings fixed
    # rules that failed on this file (a seedlint bug)
    errors: list[str] = field(default_factory=list)
    # project module -> where it resolved, as the analysis read it
    reads: dict = field(default_factory=dict)
    unread: bool = False  # the file could not be read: only its SL000 finding
    program: Program | None = (
        None  # a notebook's code cells as linted (after fixes: the fixed cells)
    )

    @property
    def changed(self) -> bool:
        return (
            self.source is not None
            and self.original is not None
            and self.source.text != self.original
        )

    def output(self) -> bytes:
        """The file's bytes after the fixes: the source, or the notebook with its fixed cells."""
        if self.program is not None:
            return self.program.notebook.encoded()
        return self.source.text.encode(self.source.encoding)
