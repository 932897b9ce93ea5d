"""Suppression comments: `# noqa`, `# noqa: SL104, SL105` on a line, `# seedlint: noqa[: codes]` for
a file."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

LINE_NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_FILE_NOQA = re.compile(
    r"^\s*#\s*seedlint:\s*noqa(?::\s?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_CODE_SPLIT = re.compile(r"[,\s]+")


def codes_in(text: str | None) -> list[str]:
    """The codes of a directive's code list, upper-cased, in order."""
    return [code.upper() for code in _CODE_SPLIT.split(text) if code] if text else []


def file_noqa(text: str) -> set[str] | None:
    """Codes a file-level `# seedlint: noqa[: codes]` turns off; an empty set means all; None: no
    comment."""
    codes: set[str] | None = None
    for match in _FILE_NOQA.finditer(text):
        found = set(codes_in(match.group("codes")))
        if not found:
            return set()
        codes = (codes or set()) | found
    return codes


def line_noqa(line: str, code: str) -> bool:
    """Whether a line's `# noqa` comment suppresses `code`."""
    for match in LINE_NOQA.finditer(line):
        codes = codes_in(match.group("codes"))
        if not codes or code in codes:
            return True
    return False


def with_noqa(line: str, code: str) -> str:
    """The line with `code` added to its `# noqa: ...` comment, or with a `# noqa: code` comment
    added."""
    for match in LINE_NOQA.finditer(line):
        codes = codes_in(match.group("codes"))
        if not codes or code in codes:
            return line
        return f"{line[: match.end('codes')]}, {code}{line[match.end('codes') :]}"
    body = line.rstrip()
    return f"{body}  # noqa: {code}{line[len(body) :]}"


@dataclass(frozen=True)
class Comment:
    """A comment token: where it starts (1-based row, 0-based column) and its text."""

    row: int
    column: int
    text: str


def comments(text: str) -> Iterator[Comment]:
    """The comments of a source text (not `#` inside strings); none if it does not tokenize.

    A lone carriage return ends a line too (`newline=None`), so rows are `SourceText`'s whatever the
    line endings.
    """
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                yield Comment(token.start[0], token.start[1], token.string)
    except (tokenize.TokenError, SyntaxError):
        return
