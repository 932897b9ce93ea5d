"""The data every part of seedlint passes around: findings, fixes, their text edits, a file's
outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from seedlint.source import Location


class Applicability(str, Enum):
    """How safe a fix is, in ruff's terms."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


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


@dataclass(frozen=True)
class CellPlace:
    """Where a notebook's finding is: its cell (the finding's rows are the cell's own) and, in the
    notebook's JSON text, where the finding starts and ends (for formats that point into files:
    SARIF, GitHub)."""

    cell: int  # 1-based, every cell counted
    file_start: Location
    file_end: Location
    edit_cells: tuple[int, ...] = ()  # the cell of each edit of its fix


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
    notebook: CellPlace | None = None  # in a notebook: its cell

    @property
    def sort_key(self) -> tuple:
        cell = self.notebook.cell if self.notebook is not None else 0
        return (str(self.path), cell, self.start.row, self.start.column, self.code)

    @property
    def position(self) -> str:
        """`row:column`, or `cell N:row:column` in a notebook (ruff's way)."""
        where = f"{self.start.row}:{self.start.column}"
        return f"cell {self.notebook.cell}:{where}" if self.notebook is not None else where

    def fixable(self, unsafe: bool) -> bool:
        return self.fix is not None and self.fix.applies(unsafe)


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply edits from the end; insertions at one offset keep the order they were listed in."""
    unique = list(dict.fromkeys(edits))
    ordered = sorted(
        enumerate(unique), key=lambda item: (item[1].start, item[1].end, item[0]), reverse=True
    )
    for _, edit in ordered:
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text
