"""`github`: GitHub Actions workflow commands that annotate the pull request."""

from __future__ import annotations

from seedlint.diagnostics import Diagnostic
from seedlint.files import display_path
from seedlint.reporters._common import ReportOptions, lines


def escape_data(text: str) -> str:
    """Escape the message of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value of a workflow command."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_line(diagnostic: Diagnostic, options: ReportOptions) -> str:
    path = display_path(diagnostic.path, options.cwd)
    start, end = diagnostic.start, diagnostic.end
    # the annotation goes on the notebook's JSON text, at the cell's line
    if diagnostic.notebook is not None:
        start, end = diagnostic.notebook.file_start, diagnostic.notebook.file_end
    properties = {
        "title": f"seedlint ({diagnostic.code})",
        "file": path,
        "line": start.row,
        "col": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }
    joined = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    text = f"{path}:{diagnostic.position}: {diagnostic.code} {diagnostic.message}"
    return f"::error {joined}::{escape_data(text)}"


def render(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    return lines(format_line(d, options) for d in diagnostics)
