"""The data every part of seedlint passes around: findings, fixes, their text edits, a file's outcome."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from seedlint.source import SourceText


class Applicability(str, Enum):
    """How safe a fix is, in ruff's terms."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based row and a 1-based column counted in code points."""

    row: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between two character offsets of the source with `content`."""

    start: int
    end: int
    content: str

    def overlaps(self, other: Edit) -> bool:
        if self == other:
            return False
        if self.start == self.end == other.start == other.end:
            return True
        return self.start < other.end and other.start < self.end


@dataclass(frozen=True)
class Fix:
    """A set of edits applied together, or not at all."""

    message: str
    applicability: Applicability
    edits: tuple[Edit, ...] = ()

    def applies(self, unsafe: bool) -> bool:
        if not self.edits:
            return False
        if self.applicability is Applicability.SAFE:
            return True
        return unsafe and self.applicability is Applicability.UNSAFE


@dataclass
class Diagnostic:
    """One finding of one rule in one file."""

    code: str
    name: str
    message: str
    path: Path
    start: Location
    end: Location
    fix: Fix | None = None
    help: str | None = None
    source_lines: tuple[str, ...] = field(default=(), repr=False)
    edit_locations: tuple[tuple[Location, Location], ...] = field(default=(), repr=False)
    generators: frozenset[str] = frozenset()  # the catalog generators the finding concerns

    @property
    def sort_key(self) -> tuple:
        return (str(self.path), self.start.row, self.start.column, self.code)

    def fixable(self, unsafe: bool) -> bool:
        return self.fix is not None and self.fix.applies(unsafe)


@dataclass
class LintResult:
    """The outcome of linting one file."""

    path: Path
    diagnostics: list[Diagnostic]
    source: SourceText | None = None  # the final text (after fixes), None when unreadable
    original: str | None = None
    fixed: Counter = field(default_factory=Counter)  # code -> number of findings fixed
    errors: list[str] = field(default_factory=list)  # rules that failed on this file (a seedlint bug)
    reads: dict = field(default_factory=dict)  # project module -> where it resolved, as the analysis read it
    unread: bool = False  # the file could not be read: only its SL000 finding

    @property
    def changed(self) -> bool:
        return self.source is not None and self.original is not None and self.source.text != self.original
