"""`full`: ruff's default output, a header, the source snippet with carets, and the help line."""

from __future__ import annotations

import unicodedata

from seedlint.diagnostics import Diagnostic
from seedlint.files import display_path
from seedlint.reporters._common import ReportOptions, marker, paint


def _char_width(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def _blank(text: str) -> str:
    """Whitespace as wide as `text`, keeping its tabs so that what follows lines up."""
    return "".join("\t" if char == "\t" else " " * _char_width(char) for char in text)


def _width(text: str) -> int:
    return sum(_char_width(char) for char in text)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _span(diagnostic: Diagnostic, index: int, text: str) -> tuple[int, int]:
    """The 0-based [start, end) code point range to underline on the `index`-th source line."""
    first, last = index == 0, diagnostic.start.row + index == diagnostic.end.row
    start = diagnostic.start.column - 1 if first else _indent(text)
    end = diagnostic.end.column - 1 if last else len(text.rstrip())
    if first:
        end = max(end, start + 1)  # at least one caret, even past the end of the line
    return start, end


def _caret_line(text: str, start: int, end: int) -> tuple[str, str] | None:
    """The prefix and the carets under text[start:end], or None when there is nothing to mark."""
    if end <= start:
        return None
    padded = text.ljust(end)
    return _blank(padded[:start]), "^" * max(_width(padded[start:end]), 1)


def _snippet(diagnostic: Diagnostic, width: int, color: bool) -> list[str]:
    """The gutter, source and caret lines of the snippet."""
    bar = paint("|", color, fg="blue")
    gutter = " " * (width + 1) + bar
    rows = []
    for index, text in enumerate(diagnostic.source_lines):
        number = paint(str(diagnostic.start.row + index).rjust(width), color, fg="blue")
        rows.append(f"{number} {bar} {text}".rstrip() if text.strip() else f"{number} {bar}")
        carets = _caret_line(text, *_span(diagnostic, index, text))
        if carets is not None:
            prefix, marks = carets
            rows.append(f"{gutter} {prefix}{paint(marks, color, fg='red')}")
    return [gutter, *rows]


def format_block(diagnostic: Diagnostic, options: ReportOptions) -> str:
    color = options.color
    shown_rows = diagnostic.start.row + max(len(diagnostic.source_lines) - 1, 0)
    width = len(str(shown_rows))
    code = paint(diagnostic.code, color, fg="red", bold=True)
    path = paint(display_path(diagnostic.path, options.cwd), color, bold=True)
    arrow = paint("-->", color, fg="blue")
    block = [
        f"{code}{marker(diagnostic, options)} {diagnostic.message}",
        f"{' ' * width}{arrow} {path}:{diagnostic.position}",
    ]
    if diagnostic.source_lines:
        block += _snippet(diagnostic, width, color)
    if diagnostic.help is not None:
        block.append(f"{paint('help:', color, bold=True)} {diagnostic.help}")
    return "\n".join(block)


def render(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    blocks = [format_block(d, options) for d in diagnostics]
    return "\n\n".join(blocks) + "\n" if blocks else ""
