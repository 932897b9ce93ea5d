"""`gitlab`: GitLab's Code Quality report (the Code Climate subset it reads), as ruff writes it."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

from seedlint.diagnostics import Diagnostic
from seedlint.files import display_path
from seedlint.reporters._common import ReportOptions


def render(diagnostics: list[Diagnostic], options: ReportOptions) -> str:
    """A JSON array, one issue per finding; paths relative to the project (`CI_PROJECT_DIR` in a
    GitLab job, else the working directory)."""
    root = Path(os.environ.get("CI_PROJECT_DIR") or options.cwd)
    occurrences: Counter[tuple[str, ...]] = Counter()
    issues = []
    for diagnostic in diagnostics:
        path = display_path(diagnostic.path, root)
        start, end = diagnostic.start, diagnostic.end
        description = f"{diagnostic.code}: {diagnostic.message}"
        if diagnostic.notebook is not None:  # the line in the notebook's JSON text, the cell said
            start, end = diagnostic.notebook.file_start, diagnostic.notebook.file_end
            description = f"{diagnostic.position}: {description}"
        # What identifies the finding across commits: its rule, file and flagged code (not its
        # line, which moves with unrelated edits), and which of its identical twins it is.
        basis = (diagnostic.code, path, *(line.strip() for line in diagnostic.source_lines))
        occurrences[basis] += 1
        digest = hashlib.sha256(json.dumps([*basis, occurrences[basis]]).encode())
        issues.append(
            {
                "check_name": diagnostic.code,
                "description": description,
                "severity": "major",
                "fingerprint": digest.hexdigest()[:16],
                "location": {
                    "path": path,
                    "positions": {
                        "begin": {"line": start.row, "column": start.column},
                        "end": {"line": end.row, "column": end.column},
                    },
                },
            }
        )
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"
