"""Turn static findings into run-time evidence: run the program, then its fixed version.

Each rule says which probe confirms its findings (`Rule.probe`) and whether it needs CUDA
(`Rule.needs_cuda`):
- run-to-run: per generator family (torch CPU, CUDA, NumPy, Python `random`), the first draw that
  differs between two fresh processes (output-run-to-run: or what the two runs print, for a
  library's own RNG object and for CUDA kernels, which change results, not draws);
- epoch order: within one run, a `DistributedSampler` yields the same order in consecutive epochs;
- worker duplication: within one run, two batches of a multi-worker loader are identical;
- seed sensitivity: run again with every seed shifted; a user-made generator whose draws do not
  change ignores the script's seed;
- hash order: run with two `PYTHONHASHSEED` values; the program's output differs;
- child processes: the draws of a process the program spawns (matched by name) differ between two
  runs;
- eval-mode draw: dropout draws at the finding while the module calling it is in eval mode;
- replay: within one run (or one DataLoader worker), the draws after a seeding call repeat
  the draws after the one before it, and no saved state was put back in between (`fork_rng` does);
- resume: a run stopped right after its first checkpoint save and started again resumes from it;
  its draws after loading it differ from those of a run never stopped after saving it.
The fix check serves the fixed sources (safe and unsafe fixes, in memory) and probes again:
`fixed` when the evidence is gone.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from seedlint.analysis import catalog
from seedlint.diagnostics import Diagnostic
from seedlint.rules import RULES
from seedlint.rules.base import Probe
from seedlint.verify.imports import is_main_guard
from seedlint.verify.runs import (
    OUTPUT_KEPT,
    Divergence,
    Run,
    draws_in,
    first_divergence,
)

HASH_SEEDS = ("1", "2")
SEED_OFFSET = 1
# How the tracer labels the draws of each catalog generator (prefixes of its `generator` field).
_TRACED_AS = {
    catalog.TORCH_CPU: "torch:cpu",
    catalog.CUDA: "torch:cuda",
    catalog.CUDA_CURRENT: "torch:cuda",
    catalog.NUMPY: "numpy",
    catalog.PYTHON_RANDOM: "random",
    catalog.TORCH_OBJECT: "generator:",
    catalog.NUMPY_OBJECT: "object:numpy",
    catalog.RANDOM_OBJECT: "object:random",
}
# the top-level statements that do work when a file is run (beside calls and a `__main__` block)
_WORK = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)


_SHOWN = 3  # items of a draw the evidence shows


@dataclass
class Evidence:
    """The first divergent draw of a family: its index among the family's draws, and both values."""

    draw: int
    op: str
    where: str | None
    first: list
    second: list
    label: str = "first divergent draw"
    sides: tuple[str, str] = ("run 1", "run 2")

    def __post_init__(self) -> None:
        """Show three items of each draw, from the first that differs (`...` before them when it is
        not the first): two shuffles of eight often start alike."""
        start = next(
            (i for i, (a, b) in enumerate(zip(self.first, self.second)) if a != b),
            min(len(self.first), len(self.second)),
        )
        start = start if start < max(len(self.first), len(self.second)) else 0
        self.first, self.second = (
            (["..."] if start else []) + values[start : start + _SHOWN]
            for values in (self.first, self.second)
        )

    @classmethod
    def of(cls, divergence: Divergence) -> Evidence:
        return cls(
            divergence.index,
            divergence.first["op"],
            divergence.first["where"],
            divergence.first["prefix"],
            divergence.second["prefix"],
        )


@dataclass
class Verdict:
    """What running the program showed about one finding."""

    # None: a program without findings, run to see whether its runs agree
    diagnostic: Diagnostic | None
    status: (
        str  # confirmed | not-reproduced | needs-cuda | static-only | error | timeout | diverges
    )
    evidence: Evidence | None = None
    fix_status: str | None = None  # fixed | still-diverges | no-fix | error (None: not checked)
    fix_evidence: Evidence | None = None
    detail: str = ""
    seconds: float = 0.0
    path: Path | None = None  # the program run, for a verdict without a finding
    ranks: list[str] = field(default_factory=list)  # under torchrun: each rank's status
    # the exception that stops the program before the fix and after it alike (`Run.failure`): the
    # program's own, not the fix's
    program_failure: dict | None = None


@dataclass
class FileRuns:
    """The runs made for one entry point, original and fixed."""

    original: list[Run] = field(default_factory=list)
    fixed: list[Run] = field(default_factory=list)
    # the original, then the fixed, with every seed shifted
    shifted: list[Run] = field(default_factory=list)
    # the original, then the fixed, under each of HASH_SEEDS
    hashed: list[Run] = field(default_factory=list)
    # the original, then the fixed: uninterrupted, interrupted, resumed (`run_resumed`)
    resumed: list[Run] = field(default_factory=list)
    # the families of generators the original and fixed runs were compared on as they went (they
    # stopped once all had diverged); empty: run to their end
    watched: set = field(default_factory=set)
    # an original run to its end, when those compared stopped at their divergence and the fixed
    # program failed: where the program fails on its own (`_own_failure`)
    unstopped: list[Run] = field(default_factory=list)

    def all(self) -> list[Run]:
        return [*self.original, *self.fixed, *self.shifted, *self.hashed, *self.resumed]

    def seconds(self) -> float:
        """The time the runs took: the longest of each configuration's runs where they went side
        by side (`watched`), the sum of the others."""
        if not self.watched:
            return sum(run.seconds for run in self.all())
        side_by_side = [self.original, self.fixed]
        rest = [*self.shifted, *self.hashed, *self.resumed]
        return sum(max((r.seconds for r in runs), default=0.0) for runs in side_by_side) + sum(
            run.seconds for run in [*rest, *self.unstopped]
        )


def probe_of(code: str) -> Probe | None:
    """The probe that confirms a rule's findings (None: none does)."""
    return RULES[code].probe


def needs_cuda(code: str) -> bool:
    """Whether confirming a rule's findings takes a CUDA device."""
    return RULES[code].needs_cuda


def confirmable(has_cuda: bool) -> list[str]:
    """The codes whose findings a run can confirm on this machine."""
    return [
        code for code in RULES if probe_of(code) is not None and (has_cuda or not needs_cuda(code))
    ]


def family_of(diagnostic: Diagnostic) -> tuple[str, ...] | None:
    """The trace labels of the generators a finding concerns (None: any)."""
    return tuple(_TRACED_AS[generator] for generator in sorted(diagnostic.generators)) or None


def seed_sensitive(diagnostic: Diagnostic) -> bool:
    """Whether the finding's evidence is a generator the code creates ignoring the script's seed."""
    return catalog.TORCH_OBJECT in diagnostic.generators


def is_entry_point(text: str) -> bool:
    """A file that does something when run: a `__main__` block, or top-level work (a bare call such
    as `main()` or `print(..)`, a loop, a `with`); a module of definitions and `logger =
    getLogger(..)` is not, whatever its docstring's lines start with, nor a file that does not
    parse (it runs nothing)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError):
        return False
    return any(
        isinstance(statement, _WORK)
        or (isinstance(statement, ast.Expr) and isinstance(statement.value, (ast.Call, ast.Await)))
        or (isinstance(statement, ast.If) and is_main_guard(statement.test))
        for statement in body
    )


def family_divergence(first: Run, second: Run, family: tuple[str, ...] | None) -> Divergence | None:
    """The first differing draw among the draws of some generators (all draws when None)."""
    return first_divergence(
        *(
            [d for d in run.random_draws if family is None or d["generator"].startswith(family)]
            for run in (first, second)
        )
    )


def judge(diagnostic: Diagnostic, runs: FileRuns, fixable: bool | None) -> Verdict:
    """The verdict on one finding from the runs of its program (`fixable` None: no fix check)."""
    return _noting_truncated_output(_judge(diagnostic, runs, fixable), runs.all())


def _judge(diagnostic: Diagnostic, runs: FileRuns, fixable: bool | None) -> Verdict:
    seconds = runs.seconds()
    probe = _probe(diagnostic)
    # the runs under each hash seed, original then fixed
    if probe_of(diagnostic.code) is Probe.HASH_ORDER:
        evidence_runs, fixed_runs = (runs.hashed[:2], []), (runs.hashed[2:], [])
    elif probe_of(diagnostic.code) is Probe.RESUME:
        evidence_runs, fixed_runs = (runs.resumed[:3], []), (runs.resumed[3:], [])
    else:
        evidence_runs, fixed_runs = (
            (runs.original, runs.shifted[:1]),
            (runs.fixed, runs.shifted[1:]),
        )
    found = probe(*evidence_runs)
    if found is None:
        verdict = _without_evidence(diagnostic, evidence_runs[0], seconds)
        if probe_of(diagnostic.code) is Probe.RESUME and verdict.status == "not-reproduced":
            verdict.detail = _not_resumed(*runs.resumed[:3])
        return verdict
    verdict = Verdict(diagnostic, "confirmed", found, seconds=seconds)
    if fixable is None:  # no fix check
        return verdict
    if not fixable:
        verdict.fix_status = "no-fix"
        return verdict
    if not fixed_runs[0]:  # the fix changes nothing it could run
        return verdict
    crashed = next((run for run in fixed_runs[0] if run.crashed), None)
    if crashed is not None:
        unfixed = runs.unstopped if fixed_runs[0] is runs.fixed and runs.unstopped else None
        verdict.program_failure = _own_failure([*(unfixed or evidence_runs[0]), *fixed_runs[0]])
        if verdict.program_failure is None:  # the fixed program fails: no claim about the fix
            verdict.fix_status, verdict.detail = (
                "error",
                "the fixed program failed:\n" + _failure(crashed),
            )
            return verdict
    again = probe(*fixed_runs)
    verdict.fix_status = "fixed" if again is None else "still-diverges"
    verdict.fix_evidence = again
    return verdict


def _probe(diagnostic: Diagnostic):
    """The evidence a rule's finding needs, from runs of one configuration and (SL107) shifted-seed
    runs."""
    probe = probe_of(diagnostic.code)
    if probe is Probe.EPOCH_ORDER:
        return lambda runs, shifted: _repeated(runs[0], "epoch", consecutive=True)
    if probe is Probe.WORKER_DUPLICATION:
        about = _loader_matcher(diagnostic)
        return lambda runs, shifted: (
            _duplicated_workers(runs[0], about)
            or _repeated(runs[0], "batch", consecutive=False, about=about)
        )
    if probe is Probe.HASH_ORDER:
        return lambda runs, shifted: _output_differs(runs, between_hash_seeds=True)
    if seed_sensitive(diagnostic):
        return lambda runs, shifted: _insensitive(runs[0], shifted[0]) if shifted else None
    if probe is Probe.CHILD_PROCESSES:
        return lambda runs, shifted: _children_divergence(runs)
    if probe is Probe.EVAL_MODE_DRAW:
        return lambda runs, shifted: _eval_mode_draw(runs[0], diagnostic)
    if probe is Probe.RESUME:
        return lambda runs, shifted: _resumed_divergence(*runs)
    family = family_of(diagnostic)
    if probe is Probe.REPLAY:
        return lambda runs, shifted: _replayed(runs[0], family)

    def run_to_run(runs: list[Run], shifted: list[Run]) -> Evidence | None:
        divergence = _runs_divergence(runs, family)
        if divergence is not None:
            return Evidence.of(divergence)
        # On CUDA, nondeterministic kernels and algorithm choices change results, not draws.
        return _output_differs(runs) if probe is Probe.OUTPUT_RUN_TO_RUN else None

    return run_to_run


def _repeated(
    run: Run,
    kind: str,
    consecutive: bool,
    about: Callable[[dict | None], bool] | None = None,
) -> Evidence | None:
    """A record (an epoch's order, a batch) that repeats an earlier one of the same sampler or
    loader (of the loader a finding is about, when `about` is given)."""
    seen: dict[int | None, list[dict]] = {}
    for record in run.records(kind):
        if about is not None and not about(record.get("loader")):
            continue
        earlier = seen.setdefault(record["owner"], [])
        candidates = earlier[-1:] if consecutive else earlier
        twin = next((other for other in candidates if other["hash"] == record["hash"]), None)
        if twin is not None:
            number = len(earlier)
            label, sides = (
                (
                    "epoch repeats the previous epoch's order",
                    (f"epoch {number - 1}", f"epoch {number}"),
                )
                if consecutive
                else ("batch repeats an earlier batch", ("earlier", f"batch {number}"))
            )
            return Evidence(
                number,
                record["op"],
                record["where"],
                twin["prefix"],
                record["prefix"],
                label,
                sides,
            )
        earlier.append(record)
    return None


def _output_differs(runs: list[Run], between_hash_seeds: bool = False) -> Evidence | None:
    """The first line of output that differs between two runs (of one configuration, or under two
    `PYTHONHASHSEED` values): the evidence for effects no draw shows, such as cuDNN's algorithm
    choice."""
    if len(runs) < 2 or any(run.crashed or run.timed_out for run in runs[:2]):
        return None
    first, second = (run.stdout.splitlines() for run in runs[:2])
    for line, (a, b) in enumerate(zip(first, second)):
        if a != b:
            if between_hash_seeds:
                label, sides = (
                    "the output differs between hash seeds",
                    tuple(f"PYTHONHASHSEED={s}" for s in HASH_SEEDS),
                )
            else:
                label, sides = "the output differs between runs", ("run 1", "run 2")
            return Evidence(line, "stdout", None, [a[:80]], [b[:80]], label, sides)
    return None


def _without_evidence(diagnostic: Diagnostic | None, runs: list[Run], seconds: float) -> Verdict:
    """No evidence: the runs crashed (`error`), ran out of time, or agree (`not-reproduced`)."""
    crashed = next((run for run in runs if run.crashed), None)
    if crashed is not None:
        return Verdict(diagnostic, "error", detail=_failure(crashed), seconds=seconds)
    if any(run.timed_out for run in runs):
        return Verdict(
            diagnostic, "timeout", detail="no divergence before the timeout", seconds=seconds
        )
    return Verdict(diagnostic, "not-reproduced", seconds=seconds)


def _own_failure(runs: list[Run]) -> dict | None:
    """The exception that stops every run, before the fix and after it, at the same line of the
    user's files (a notebook run out of order fails at the same cell, fixed or not), as the
    unfixed runs place it; None when one run ends otherwise. A line is the same by its file and
    text: the fix may have added lines above it."""
    failures = [run.failure if run.crashed else None for run in runs]
    if None in failures or failures[0]["where"] is None:
        return None
    places = {(f["type"], f["where"].rpartition(":")[0], f["line"]) for f in failures}
    return failures[0] if len(places) == 1 else None


def _failure(run: Run) -> str:
    """The tail of a failed run's stderr (under torchrun, the ranks' error, not the launcher's
    report), with a hint for the two failures a new user meets first: missing arguments, a missing
    launcher."""
    stderr = run.stderr
    report = stderr.rfind("ChildFailedError")
    if report != -1:
        stderr = stderr[: stderr.rfind("Traceback (most recent call last):", 0, report)] or stderr
    tail = "\n".join(line[:200] for line in stderr.strip().splitlines()[-10:])
    if run.returncode == 2:
        tail += (
            "\n(exit status 2: arguments the script needs go after `--`: "
            "seedlint verify SCRIPT -- ARGS)"
        )
    elif "environment variable RANK expected" in stderr:
        tail += (
            "\n(the program expects a distributed launcher: add "
            "`--launcher torchrun --nproc-per-node 2`)"
        )
    return tail


def _loader_matcher(diagnostic: Diagnostic) -> Callable[[dict | None], bool]:
    """Whether a loader's tag is the loader a finding is about: the finding is where the loader is
    created (SL202) or inside its `worker_init_fn` (SL203)."""
    path, row = str(diagnostic.path.resolve()), diagnostic.start.row

    def about(tag: dict | None) -> bool:
        if not tag:
            return False
        init_fn = tag.get("init_fn")
        return _at_finding(tag.get("created"), diagnostic) or (
            bool(init_fn) and init_fn[0] == path and init_fn[1] <= row <= init_fn[2]
        )

    return about


def _at_finding(where: str | None, diagnostic: Diagnostic) -> bool:
    """Whether a `file:line` location lies on the finding's lines."""
    if where is None:
        return False
    file, _, line = where.rpartition(":")
    return (
        file == str(diagnostic.path.resolve())
        and diagnostic.start.row <= int(line) <= diagnostic.end.row
    )


def _duplicated_workers(run: Run, about: Callable[[dict | None], bool]) -> Evidence | None:
    """Two workers of the loader a finding is about whose first random draws are the same values."""
    firsts: dict[tuple[str, str], dict] = {}
    for label, draws in run.children_draws().items():
        # another process or loader
        if not isinstance(label, int) or not about(draws[0].get("loader")):
            continue
        key = (draws[0]["op"], draws[0]["hash"])
        if key in firsts and firsts[key]["worker"] != draws[0]["worker"]:
            twin = firsts[key]
            return Evidence(
                0,
                draws[0]["op"],
                draws[0]["where"],
                twin["prefix"],
                draws[0]["prefix"],
                "two DataLoader workers draw the same values",
                (f"worker {twin['worker']}", f"worker {draws[0]['worker']}"),
            )
        firsts.setdefault(key, draws[0])
    return None


def _children_divergence(runs: list[Run]) -> Evidence | None:
    """The first draw of a child process (matched by its label across runs) that differs between
    runs."""
    mine = runs[0].children_draws()
    for other in runs[1:]:
        theirs = other.children_draws()
        for label in sorted(mine.keys() & theirs.keys(), key=str):
            divergence = first_divergence(mine[label], theirs[label])
            if divergence is not None:
                evidence = Evidence.of(divergence)
                evidence.label = f"first divergent draw of child process {label}"
                return evidence
    return None


def _eval_mode_draw(run: Run, diagnostic: Diagnostic) -> Evidence | None:
    """A dropout draw made at the finding while the module calling it was in eval mode."""
    for index, record in enumerate(run.random_draws):
        if record.get("eval_module") and _at_finding(record["where"], diagnostic):
            return Evidence(
                index,
                record["op"],
                record["where"],
                [record["eval_module"]],
                record["prefix"],
                "dropout draws although the module is in eval mode",
                ("module", "values"),
            )
    return None


def _replayed(run: Run, family: tuple[str, ...] | None) -> Evidence | None:
    """Draws after a seeding call that repeat, value for value, the draws after the previous run of
    the same call (in the program or in one of its DataLoader workers). Draws are followed through
    saved states put back (`torch.random.fork_rng`): a stretch left by restoring the state it
    started from harmed nothing."""
    for records in (run.draws, *run.children):
        by_place: dict[str | None, list[list[dict]]] = {}
        harmless: set[int] = set()
        current: list[dict] | None = None
        saved: list[dict] | None = None
        for record in records:
            kind = record.get("kind", "draw")
            if kind == "seed":
                current = []
                by_place.setdefault(record["where"], []).append(current)
            elif kind == "save":
                saved = current
            elif kind == "restore":
                if current is not None and current is not saved:
                    harmless.add(id(current))
                current = saved
            elif (
                kind == "draw"
                and current is not None
                and (family is None or record["generator"].startswith(family))
            ):
                current.append(record)
        for place, stretches in by_place.items():
            kept = [stretch for stretch in stretches if stretch and id(stretch) not in harmless]
            for before, after in zip(kept, kept[1:]):
                count = min(len(before), len(after))
                if [(d["op"], d["hash"]) for d in before[:count]] == [
                    (d["op"], d["hash"]) for d in after[:count]
                ]:
                    last = after[count - 1]
                    return Evidence(
                        count - 1,
                        last["op"],
                        last["where"],
                        before[count - 1]["prefix"],
                        last["prefix"],
                        f"the {count} draws after the seeding on line "
                        f"{str(place).rpartition(':')[2]} repeat those after its previous run",
                        ("previous run", "this run"),
                    )
    return None


def _resumed_divergence(uninterrupted: Run, interrupted: Run, resumed: Run) -> Evidence | None:
    """The first draw after the resumed run loads the interrupted run's first checkpoint that
    differs from the uninterrupted run's draws after saving that checkpoint."""
    name = _first_checkpoint(interrupted)
    if name is None:
        return None
    after_save = _resume_point(uninterrupted, "torch.save", name)
    after_load = _resume_point(resumed, "torch.load", name)
    if after_save is None or after_load is None:
        return None
    divergence = first_divergence(
        draws_in(uninterrupted.draws[after_save:]), draws_in(resumed.draws[after_load:])
    )
    if divergence is None:
        return None
    return replace(
        Evidence.of(divergence),
        label=f"resumed from {name}, the run draws differently from the run never stopped",
        sides=("uninterrupted", "resumed"),
    )


def _not_resumed(uninterrupted: Run, interrupted: Run, resumed: Run) -> str:
    """Why the resume probe could not compare the runs, or that the resumed run matched."""
    name = _first_checkpoint(interrupted)
    if name is None:
        return "the program saved no checkpoint with torch.save, so no run was stopped to resume"
    if _resume_point(resumed, "torch.load", name) is None:
        return (
            f"run again after being stopped at its first checkpoint ({name}), the program did not "
            "load it: pass the arguments that make it resume (seedlint verify train.py -- ARGS)"
        )
    return f"resumed from {name}, the run draws what the run never stopped draws"


def _first_checkpoint(interrupted: Run) -> str | None:
    """The checkpoint the interrupted run saved before it was stopped (None: it saved none)."""
    saved = interrupted.records("checkpoint")[:1]
    return saved[0]["prefix"][0] if saved else None


def _resume_point(run: Run, op: str, name: str) -> int | None:
    """The index in the run's records just after its first `op` (save or load) of the checkpoint
    `name`."""
    return next(
        (
            index + 1
            for index, record in enumerate(run.draws)
            if record.get("kind") == "checkpoint"
            and record["op"] == op
            and record["prefix"][:1] == [name]
        ),
        None,
    )


def _insensitive(run: Run, shifted: Run) -> Evidence | None:
    """The first draw of a user-made generator that a different seed leaves unchanged."""
    own = [
        [d for d in r.random_draws if d["generator"].startswith("generator:")]
        for r in (run, shifted)
    ]
    if not own[0] or [d["hash"] for d in own[0]] != [d["hash"] for d in own[1]]:
        return None
    first, second = own[0][0], own[1][0]
    return Evidence(
        0,
        first["op"],
        first["where"],
        first["prefix"],
        second["prefix"],
        "a different seed leaves the generator's draw unchanged",
        ("seed", f"seed + {SEED_OFFSET}"),
    )


def judge_program(path: Path, runs: list[Run]) -> Verdict:
    """A program with no finding: do its runs agree (`not-reproduced`) or part ways (`diverges`)?"""
    seconds = sum(run.seconds for run in runs)
    divergence = _runs_divergence(runs, None)
    if divergence is not None:
        verdict = Verdict(
            None,
            "diverges",
            Evidence.of(divergence),
            seconds=seconds,
            detail="the runs differ although seedlint found nothing here",
        )
    else:
        verdict = _without_evidence(None, runs, seconds)
    verdict.path = path
    return _noting_truncated_output(verdict, runs)


def _noting_truncated_output(verdict: Verdict, runs: list[Run]) -> Verdict:
    """Add to the verdict's detail that some run's output was cut to its first and last
    `OUTPUT_KEPT` bytes."""
    sizes: dict[str, int] = {}
    for run in runs:
        for stream, size in run.output_sizes.items():
            sizes[stream] = max(sizes.get(stream, 0), size)
    if sizes:
        written = " and ".join(
            f"{size / 1e6:.1f} MB to {stream}" for stream, size in sorted(sizes.items())
        )
        note = (
            f"output truncated: a run wrote {written}; seedlint kept the first and last "
            f"{OUTPUT_KEPT // 1024} KiB of each"
        )
        verdict.detail = f"{verdict.detail}\n{note}" if verdict.detail else note
    return verdict


def _runs_divergence(runs: list[Run], family: tuple[str, ...] | None) -> Divergence | None:
    """The first run-to-run divergence of a family between the first run and any other."""
    return next(
        (found for other in runs[1:] if (found := family_divergence(runs[0], other, family))), None
    )


def per_rank(runs: FileRuns) -> list[FileRuns]:
    """Under torchrun: the runs of each rank, to be judged rank by rank."""
    count = min((len(run.ranks) for run in runs.original), default=0)
    return [
        FileRuns(
            [run.ranks[rank] for run in runs.original],
            [run.ranks[rank] for run in runs.fixed],
            [run.ranks[rank] for run in runs.shifted if len(run.ranks) > rank],
        )
        for rank in range(count)
    ]
