"""`--statistics`: findings counted per rule, in every output format.

json and json-lines give `{code, name, count, fixable}` rows (as ruff); github gives one
`::notice` per rule, which the Actions run summary shows; sarif gives the usual log, with the
rows under `runs[0].properties.statistics`, so the file stays valid for code scanning; gitlab
gives the Code Quality report itself (its schema has no place for a table, and the artifact
must stay valid); full and concise give ruff's text table.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from seedlint.diagnostics import Diagnostic
from seedlint.reporters import github, gitlab, sarif
from seedlint.reporters._common import ReportOptions

_FIXABLE = {True: "[*] ", False: "[ ] "}


def rows(diagnostics: list[Diagnostic], options: ReportOptions) -> list[dict[str, Any]]:
    """One row per rule with findings, the most frequent first."""
    counts = Counter(d.code for d in diagnostics)
    return [
        {
            "code": code,
            "name": options.rules[code].name,
            "count": count,
            "fixable": all(d.fixable(options.unsafe_fixes) for d in diagnostics if d.code == code),
        }
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def render(diagnostics: list[Diagnostic], output_format: str, options: ReportOptions) -> str:
    table = rows(diagnostics, options)
    if output_format == "json":
        return json.dumps(table, indent=2) + "\n"
    if output_format == "json-lines":
        return "".join(json.dumps(row) + "\n" for row in table)
    if output_format == "sarif":
        log = json.loads(sarif.render(diagnostics, options))
        log["runs"][0].setdefault("properties", {})["statistics"] = table
        return json.dumps(log, indent=2) + "\n"
    if output_format == "gitlab":
        return gitlab.render(diagnostics, options)
    if output_format == "github":
        return "".join(
            f"::notice title={github.escape_property('seedlint statistics')}::"
            f"{github.escape_data(_sentence(row))}\n"
            for row in table
        )
    if not table:
        return ""
    width = max(len(str(row["count"])) for row in table)
    return "".join(
        f"{row['count']:>{width}}\t{row['code']}\t{_FIXABLE[row['fixable']]}{row['name']}\n"
        for row in table
    )


def _sentence(row: dict[str, Any]) -> str:
    fixable = " (fixable with --fix)" if row["fixable"] else ""
    return f"{row['count']} × {row['code']} {row['name']}{fixable}"
