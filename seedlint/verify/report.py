"""How `seedlint verify` shows its verdicts: a short table per finding (full), or everything
(json)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from seedlint.files import display_path
from seedlint.verify.probe import Evidence, Verdict


def _where(evidence: Evidence, cwd: Path) -> str:
    if evidence.op == "stdout":
        return f"line {evidence.draw + 1} of the program's output"
    return _shown(evidence.where, cwd)


def _shown(where: str | None, cwd: Path) -> str:
    """`file:line` (a notebook's `file:cell N:row`) with the file as the user sees it."""
    if where is None:
        return "outside your files"
    path, _, line = where.rpartition(":")
    if ":cell " in path:
        path, _, cell = path.rpartition(":cell ")
        line = f"cell {cell}:{line}"
    return f"{display_path(Path(path), cwd)}:{line}"


def render_full(verdicts: list[Verdict], cwd: Path) -> str:
    lines = []
    shown = ""  # the detail printed last: a program's failure is shown once for all its findings
    for verdict in verdicts:
        d = verdict.diagnostic
        timing = f"  ({verdict.seconds:.1f} s)" if verdict.seconds else ""
        what = (
            f"{display_path(d.path, cwd)}:{d.position}: {d.code} {d.name}"
            if d is not None
            else f"{display_path(verdict.path, cwd)}: (no finding)"
        )
        lines.append(f"{what}  {_outcome(verdict)}{timing}")
        for prefix, evidence in (
            ("", verdict.evidence),
            ("after the fix, still: ", verdict.fix_evidence),
        ):
            if evidence is not None:
                lines.append(
                    f"  {prefix}{evidence.label} (#{evidence.draw}): {evidence.op} at "
                    f"{_where(evidence, cwd)}"
                )
                width = max(len(side) for side in evidence.sides)
                lines.append(f"    {evidence.sides[0]:<{width}}: {evidence.first}")
                lines.append(f"    {evidence.sides[1]:<{width}}: {evidence.second}")
        failure = verdict.program_failure
        if failure is not None:
            lines.append(
                f"  the program itself stops at {_shown(failure['where'], cwd)} "
                f"({failure['type']}: {failure['message'][:80]}), before the fix and after it"
            )
        if verdict.detail and verdict.detail == shown:
            lines.append("  (the same as above)")
        elif verdict.detail:
            lines.extend(f"  {line}" for line in verdict.detail.splitlines()[-8:])
            shown = verdict.detail
    if not verdicts:
        return (
            "Nothing to verify: seedlint check finds nothing here (a "
            "script named on the command line is run anyway).\n"
        )
    counts = Counter(v.status for v in verdicts)
    fixed = sum(1 for v in verdicts if v.fix_status == "fixed")
    summary = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
    noun = "verdict" if len(verdicts) == 1 else "verdicts"
    lines.append(
        f"\n{len(verdicts)} {noun}: {summary}" + (f"; {fixed} fixed by the fix" if fixed else "")
    )
    return "\n".join(lines) + "\n"


def render_json(verdicts: list[Verdict], cwd: Path) -> str:
    items = []
    for verdict in verdicts:
        d = verdict.diagnostic
        items.append(
            {
                "code": d.code if d else None,
                "name": d.name if d else None,
                "message": d.message if d else None,
                "filename": str((d.path if d else verdict.path).absolute()),
                "cell": d.notebook.cell if d and d.notebook else None,
                "location": {"row": d.start.row, "column": d.start.column} if d else None,
                "status": verdict.status,
                "fix_status": verdict.fix_status,
                "evidence": asdict(verdict.evidence) if verdict.evidence else None,
                "fix_evidence": asdict(verdict.fix_evidence) if verdict.fix_evidence else None,
                "detail": verdict.detail,
                "seconds": round(verdict.seconds, 3),
                "ranks": verdict.ranks,
                "program_failure": verdict.program_failure,
            }
        )
    return json.dumps(items, indent=2) + "\n"


def _outcome(verdict: Verdict | str | None) -> str:
    if verdict is None:
        return "-"
    if isinstance(verdict, str):
        return verdict
    return verdict.status + (f" -> {verdict.fix_status}" if verdict.fix_status else "")


EXAMPLES_HEADER = f"{'rule':<7}{'example (-> with the page fix)':<36}fixed version\n"


def render_example_full(row, cwd: Path) -> str:
    """A rule's line (and its evidence's): what its page's example and fixed version did on this
    machine."""
    lines = [f"{row.code:<7}{_outcome(row.example):<36}{_outcome(row.fixed)}"]
    if isinstance(row.example, Verdict) and row.example.evidence is not None:
        evidence = row.example.evidence
        lines.append(f"{'':<7}  {evidence.label}: {evidence.op} at {_where(evidence, cwd)}")
    if isinstance(row.example, Verdict) and row.example.detail:
        lines.extend(f"{'':<7}  {line}" for line in row.example.detail.splitlines()[-3:])
    return "\n".join(lines) + "\n"


def render_examples_json(rows: list, cwd: Path) -> str:
    items = []
    for row in rows:
        example = row.example if isinstance(row.example, Verdict) else None
        items.append(
            {
                "code": row.code,
                "example": example.status if example else row.example,
                "example_fix": example.fix_status if example else None,
                "evidence": asdict(example.evidence) if example and example.evidence else None,
                "fixed_version": row.fixed.status if row.fixed else None,
                "detail": example.detail if example else "",
            }
        )
    return json.dumps(items, indent=2) + "\n"
