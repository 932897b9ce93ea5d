"""`json` and `json-lines`: one object per finding, with ruff's keys."""

from __future__ import annotations

import json
from typing import Any

from seedlint.diagnostics import Diagnostic
from seedlint.files import absolute_path
from seedlint.pages import page_url
from seedlint.reporters._common import ReportOptions, lines, located_edits
from seedlint.source import Location


def _location(location: Location) -> dict[str, int]:
    return {"row": location.row, "column": location.column}


def _fix(diagnostic: Diagnostic) -> dict[str, Any] | None:
    if diagnostic.fix is None:
        return None
    edits = [
        {"content": edit.content, "location": _location(start), "end_location": _location(end)}
        for edit, start, end in located_edits(diagnostic)
    ]
    if diagnostic.notebook is not None:  # rows are a cell's: each edit says which
        for item, cell in zip(edits, diagnostic.notebook.edit_cells):
            item["cell"] = cell
    fix = diagnostic.fix
    return {"applicability": fix.applicability.value, "message": fix.message, "edits": edits}


def diagnostic_item(diagnostic: Diagnostic, options: ReportOptions) -> dict[str, Any]:
    """The JSON object of one finding."""
    item = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "message": diagnostic.message,
        "filename": str(absolute_path(diagnostic.path, options.cwd)),
        "location": _location(diagnostic.start),
        "end_location": _location(diagnostic.end),
        "fix": _fix(diagnostic),
        "noqa_row": diagnostic.start.row,
        "url": page_url(diagnostic.code),
    }
    if diagnostic.notebook is not None:  # a notebook's rows are its cell's (ruff's `cell`)
        item["cell"] = diagnostic.notebook.cell
    return item


def render_json(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    items = [diagnostic_item(d, options) for d in diagnostics]
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def render_json_lines(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    return lines(json.dumps(diagnostic_item(d, options), ensure_ascii=False) for d in diagnostics)
