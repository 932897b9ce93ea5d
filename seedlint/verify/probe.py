"""Turn static findings into run-time evidence: run the program twice, then its fixed version twice.

The run-to-run probe compares, per generator family (torch CPU, CUDA, NumPy, Python `random`),
the draws of two fresh processes: the first differing draw of the family a finding names is
the evidence. The fix check serves the fixed sources (safe and unsafe fixes, in memory) and runs
again: `fixed` when the family's draws now agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from seedlint.diagnostics import Diagnostic
from seedlint.verify.runs import Divergence, Run, RunPlan, first_divergence, run_traced

# What each rule's run-time evidence is, and which generator family it concerns.
RUN_TO_RUN = frozenset({"SL101", "SL104", "SL105", "SL106", "SL204"})
CUDA_ONLY = frozenset({"SL102", "SL103", "SL301", "SL302", "SL303", "SL305"})
_FAMILIES = (("NumPy", "numpy"), ("Python `random`", "random"), ("CUDA", "torch:cuda"), ("torch", "torch:cpu"))
_RULE_FAMILY = {"SL101": "torch:cpu", "SL204": "torch:cpu", "SL106": None}
_MAIN_GUARD = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]\s*:", re.M)


@dataclass
class Evidence:
    """The first divergent draw of a family: its index among the family's draws, and both values."""

    draw: int
    op: str
    where: str | None
    first: list
    second: list

    @classmethod
    def of(cls, divergence: Divergence) -> Evidence:
        return cls(divergence.index, divergence.first["op"], divergence.first["where"],
                   divergence.first["prefix"], divergence.second["prefix"])


@dataclass
class Verdict:
    """What running the program showed about one finding."""

    diagnostic: Diagnostic | None  # None: a program without findings, run to see whether its runs agree
    status: str  # confirmed | not-reproduced | needs-cuda | static-only | error | timeout | diverges
    evidence: Evidence | None = None
    fix_status: str | None = None  # fixed | still-diverges | no-fix (None: not checked)
    fix_evidence: Evidence | None = None
    detail: str = ""
    seconds: float = 0.0
    path: Path | None = None  # the program run, for a verdict without a finding


@dataclass
class FileRuns:
    """The runs made for one entry point, original and fixed."""

    original: list[Run] = field(default_factory=list)
    fixed: list[Run] = field(default_factory=list)


def family_of(diagnostic: Diagnostic) -> str | None:
    """The generator family a finding names (None: any)."""
    if diagnostic.code in _RULE_FAMILY:
        return _RULE_FAMILY[diagnostic.code]
    for words, family in _FAMILIES:
        if words in diagnostic.message:
            return family
    return None


def is_entry_point(text: str) -> bool:
    """A file that does something when run: a `__main__` block, or top-level calls."""
    return bool(_MAIN_GUARD.search(text)) or any(
        line and not line[0].isspace() and not line.startswith(("import ", "from ", "def ", "class ", "@", "#", '"'))
        and "(" in line
        for line in text.splitlines()
    )


def family_divergence(first: Run, second: Run, family: str | None) -> Divergence | None:
    """The first differing draw among the draws of one generator family (all draws when None)."""
    if family is None:
        return first_divergence(first, second)
    first, second = (Run([d for d in run.draws if d["generator"].startswith(family)], run.returncode, run.stderr,
                         run.seconds) for run in (first, second))
    return first_divergence(first, second)


def judge(diagnostic: Diagnostic, runs: FileRuns, fixable: bool) -> Verdict:
    """The verdict on one finding from the runs of its program."""
    family = family_of(diagnostic)
    seconds = sum(run.seconds for run in (*runs.original, *runs.fixed))
    divergence = _runs_divergence(runs.original, family)
    if divergence is None:
        crashed = next((run for run in runs.original if run.crashed), None)
        if crashed is not None:
            return Verdict(diagnostic, "error", detail=crashed.stderr.strip()[-500:], seconds=seconds)
        if any(run.timed_out for run in runs.original):
            return Verdict(diagnostic, "timeout", detail="no divergence before the timeout", seconds=seconds)
        return Verdict(diagnostic, "not-reproduced", seconds=seconds)
    verdict = Verdict(diagnostic, "confirmed", Evidence.of(divergence), seconds=seconds)
    if not runs.fixed:
        return verdict
    if not fixable:
        verdict.fix_status = "no-fix"
        return verdict
    again = _runs_divergence(runs.fixed, family)
    verdict.fix_status = "fixed" if again is None else "still-diverges"
    verdict.fix_evidence = Evidence.of(again) if again is not None else None
    return verdict


def judge_program(path: Path, runs: list[Run]) -> Verdict:
    """A program with no finding: do its runs agree (`not-reproduced`) or part ways (`diverges`)?"""
    seconds = sum(run.seconds for run in runs)
    divergence = _runs_divergence(runs, None)
    if divergence is not None:
        return Verdict(None, "diverges", Evidence.of(divergence), seconds=seconds, path=path,
                       detail="the runs differ although seedlint found nothing here")
    crashed = next((run for run in runs if run.crashed), None)
    if crashed is not None:
        return Verdict(None, "error", detail=crashed.stderr.strip()[-500:], seconds=seconds, path=path)
    status = "timeout" if any(run.timed_out for run in runs) else "not-reproduced"
    return Verdict(None, status, seconds=seconds, path=path)


def _runs_divergence(runs: list[Run], family: str | None) -> Divergence | None:
    """The first run-to-run divergence of a family between the first run and any other."""
    return next((found for other in runs[1:] if (found := family_divergence(runs[0], other, family))), None)


def run_many(script: Path, args: list[str], sources: dict[str, str], timeout: float, count: int) -> list[Run]:
    """`count` runs of one configuration, in fresh processes, with identical environments and arguments."""
    plan = RunPlan(script, args, sources, timeout)
    return [run_traced(plan) for _ in range(max(count, 2))]
