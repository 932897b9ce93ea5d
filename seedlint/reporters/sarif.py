"""`sarif`: a SARIF 2.1.0 log, as GitHub code scanning reads it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import seedlint
from seedlint.diagnostics import Diagnostic
from seedlint.files import absolute_path, relative_path
from seedlint.pages import page_text, page_url
from seedlint.reporters._common import ReportOptions, located_edits
from seedlint.source import Location

if TYPE_CHECKING:
    from seedlint.rules.base import Rule

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/seedlint/seedlint"
SRCROOT = "%SRCROOT%"


def _rule(rule: type[Rule]) -> dict[str, Any]:
    """The reportingDescriptor of one rule."""
    page = page_text(rule.code)
    help_ = {"text": page or rule.summary}
    if page is not None:
        help_["markdown"] = page
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": help_,
        "helpUri": page_url(rule.code),
        "defaultConfiguration": {"level": "error" if rule.default_enabled else "none"},
    }


def _artifact(path: Path, options: ReportOptions) -> dict[str, str]:
    """The artifactLocation of a file: relative to %SRCROOT%, or an absolute URI outside it."""
    relative = relative_path(path, options.cwd)
    if relative is None:
        return {"uri": absolute_path(path, options.cwd).as_uri()}
    # a name's own bytes
    return {
        "uri": quote(os.fsencode(relative.as_posix())),
        "uriBaseId": SRCROOT,
    }


def _region(start: Location, end: Location) -> dict[str, int]:
    return {
        "startLine": start.row,
        "startColumn": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }


def _fixes(diagnostic: Diagnostic, artifact: dict[str, str]) -> list[dict[str, Any]]:
    replacements = [
        {"deletedRegion": _region(start, end), "insertedContent": {"text": edit.content}}
        for edit, start, end in located_edits(diagnostic)
    ]
    if not replacements:
        return []
    change = {"artifactLocation": artifact, "replacements": replacements}
    return [{"description": {"text": diagnostic.fix.message}, "artifactChanges": [change]}]


def _result(
    diagnostic: Diagnostic, indices: dict[str, int], options: ReportOptions
) -> dict[str, Any]:
    artifact = _artifact(diagnostic.path, options)
    result: dict[str, Any] = {"ruleId": diagnostic.code}
    if diagnostic.code in indices:
        result["ruleIndex"] = indices[diagnostic.code]
    result["level"] = "error"
    result["message"] = {"text": diagnostic.message}
    place = diagnostic.notebook
    # In a notebook, the region is in the notebook's JSON text, and the cell's own row and column
    # are kept as properties; a fix edits cells, which a replacement in the file's text cannot say.
    region = (
        _region(diagnostic.start, diagnostic.end)
        if place is None
        else _region(place.file_start, place.file_end)
    )
    result["locations"] = [{"physicalLocation": {"artifactLocation": artifact, "region": region}}]
    if place is not None:
        result["message"] = {"text": f"{diagnostic.position}: {diagnostic.message}"}
        result["properties"] = {
            "cell": place.cell,
            "cellLine": diagnostic.start.row,
            "cellColumn": diagnostic.start.column,
        }
        return result
    fixes = _fixes(diagnostic, artifact)
    if fixes:
        result["fixes"] = fixes
    return result


def _root_uri(cwd: Path) -> str:
    uri = cwd.absolute().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def sarif_log(diagnostics: list[Diagnostic], options: ReportOptions) -> dict[str, Any]:
    """The SARIF log as a JSON-ready dict."""
    codes = sorted(options.rules)
    indices = {code: index for index, code in enumerate(codes)}
    driver = {
        "name": "seedlint",
        "semanticVersion": seedlint.__version__,
        "informationUri": INFORMATION_URI,
        "rules": [_rule(options.rules[code]) for code in codes],
    }
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SRCROOT: {"uri": _root_uri(options.cwd)}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, indices, options) for d in diagnostics],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    return json.dumps(sarif_log(diagnostics, options), indent=2, ensure_ascii=False) + "\n"
