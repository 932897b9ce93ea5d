"""SL000 invalid-syntax: a file that does not parse (reported by the linter, not by a check)."""

from __future__ import annotations

from collections.abc import Iterator

from seedlint.analysis.context import FileContext
from seedlint.rules.base import Finding, Rule


class InvalidSyntax(Rule):
    code = "SL000"
    name = "invalid-syntax"
    summary = "The file does not parse as Python, so nothing in it can be checked"
    patterns = ()

    def check(self, context: FileContext) -> Iterator[Finding]:
        return iter(())
