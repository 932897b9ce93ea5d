"""What every output format shares: the report options, edit locations and styling (paths:
`files`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from seedlint.diagnostics import Diagnostic, Edit
from seedlint.source import Location

if TYPE_CHECKING:
    from seedlint.rules.base import Rule


@dataclass(frozen=True)
class ReportOptions:
    """The settings a format may need besides the diagnostics themselves."""

    cwd: Path
    color: bool
    rules: Mapping[str, type[Rule]]
    unsafe_fixes: bool


def located_edits(diagnostic: Diagnostic) -> Iterator[tuple[Edit, Location, Location]]:
    """Each edit of the diagnostic's fix with its start and end location."""
    if diagnostic.fix is None:
        return
    for edit, (start, end) in zip(diagnostic.fix.edits, diagnostic.edit_locations):
        yield edit, start, end


def paint(text: str, color: bool, **style: object) -> str:
    """`text` styled with click.style when color is on, untouched otherwise."""
    return click.style(text, **style) if color else text


def marker(diagnostic: Diagnostic, options: ReportOptions) -> str:
    """` [*]` when the diagnostic's fix applies at the current safety level, else nothing."""
    if not diagnostic.fixable(options.unsafe_fixes):
        return ""
    return " " + paint("[*]", options.color, fg="cyan")


def lines(items: Iterator[str] | list[str]) -> str:
    """One item per line, with a final newline; empty when there are no items."""
    text = "\n".join(items)
    return text + "\n" if text else ""
