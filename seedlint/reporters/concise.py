"""`concise`: one `path:row:col: CODE [*] message` line per finding."""

from __future__ import annotations

from seedlint.diagnostics import Diagnostic
from seedlint.files import display_path
from seedlint.reporters._common import ReportOptions, lines, marker, paint


def format_line(diagnostic: Diagnostic, options: ReportOptions) -> str:
    path = paint(display_path(diagnostic.path, options.cwd), options.color, bold=True)
    code = paint(diagnostic.code, options.color, fg="red", bold=True)
    return f"{path}:{diagnostic.position}: {code}{marker(diagnostic, options)} {diagnostic.message}"


def render(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    return lines(format_line(d, options) for d in diagnostics)
