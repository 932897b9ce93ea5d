"""A verification session: lint the paths, run each flagged entry point (and its fixed version),
judge."""

from __future__ import annotations

import difflib
import functools
import importlib.util
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from seedlint.config import installed_torch_version
from seedlint.diagnostics import Applicability
from seedlint.notebook import NotebookError, Program, is_notebook, read_program
from seedlint.pages import page_examples
from seedlint.rules import RULES
from seedlint.rules.base import Probe
from seedlint.runner import CheckOptions, Runner
from seedlint.selection import expand_all
from seedlint.source import Location
from seedlint.verify.imports import missing_module
from seedlint.verify.probe import (
    HASH_SEEDS,
    SEED_OFFSET,
    FileRuns,
    Verdict,
    family_of,
    is_entry_point,
    judge,
    judge_program,
    needs_cuda,
    per_rank,
    probe_of,
    seed_sensitive,
)
from seedlint.verify.runs import (
    Comparison,
    Run,
    RunPlan,
    concurrently,
    run_all,
    run_resumed,
)

_RUN_TO_RUN = (Probe.RUN_TO_RUN, Probe.OUTPUT_RUN_TO_RUN)
# A call that saves something (`torch.save(..)`, `save_checkpoint(..)`, `np.save(..)`).
_SAVE_CALL = re.compile(r"\bsave\w*\s*\(")


@dataclass
class VerifyOptions:
    paths: list[Path]
    select: list[str] | None = None
    runs: int = 2
    timeout: float = 60.0
    device: str = "auto"  # auto | cpu | cuda
    fix_check: bool = True
    script_args: list[str] = field(default_factory=list)
    nproc_per_node: int = (
        0  # > 0: run under torchrun (`--launcher torchrun`), each rank traced and judged
    )
    progress: Callable[[str], None] | None = (
        None  # for runs longer than a second (a terminal's stderr)
    )
    jobs: int = 1  # runs at once (`--examples`: examples at once, spare ones to an example's runs)
    # The fixed text to check instead of seedlint's own fix (the rule pages' fixed versions).
    fixed_text: Callable[[Path], str | None] | None = None


@dataclass
class ExampleRow:
    """`seedlint verify --examples`: what a rule page's example and its fixed version do on this
    machine."""

    code: str
    # a status when nothing ran: static-only, needs-cuda, not-flagged (a bug)
    example: Verdict | str
    fixed: Verdict | None


def cuda_available() -> bool:
    """Whether this machine runs CUDA, asked of a fresh interpreter (this one need not import
    torch)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.cuda.is_available())"],
        capture_output=True,
        text=True,
    )
    return probe.stdout.strip() == "True"


def verify(
    options: VerifyOptions, progress: Callable[[str], None] = lambda _: None
) -> list[Verdict]:
    """Lint the paths, then run every entry point with runtime-confirmable findings; a finding in a
    helper module is judged from the runs of an entry point that loads it."""
    runner = Runner(CheckOptions(paths=options.paths, select=options.select))
    report = runner.run()
    by_file: dict[Path, list] = {}
    for diagnostic in report.diagnostics:
        by_file.setdefault(diagnostic.path, []).append(diagnostic)
    has_cuda = options.device == "cuda" or (
        options.device == "auto"
        and any(needs_cuda(d.code) for d in report.diagnostics)
        and cuda_available()
    )
    notebooks = {
        path: program
        for path in report.files
        if is_notebook(path)
        for program in [_program(path)]
        if program is not None
    }
    programs = _Programs(
        options,
        _fixed_sources(runner, by_file) if options.fix_check else {},
        progress,
        {str(path.resolve()): program.text for path, program in notebooks.items()},
    )
    verdicts: list[Verdict] = []
    helpers: dict[Path, list] = {}
    # each file read and parsed once, however many helpers look for a program that loads them
    is_program = functools.cache(_is_entry_point)
    for path, diagnostics in by_file.items():
        runnable = [d for d in diagnostics if _not_run(d.code, has_cuda) is None]
        verdicts.extend(
            Verdict(d, _not_run(d.code, has_cuda)) for d in diagnostics if d not in runnable
        )
        runs_itself = bool(runnable) and (path in notebooks or is_program(path))
        missing = programs.missing(path) if runs_itself else None
        if missing is not None:
            verdicts.extend(Verdict(d, "needs-module", detail=missing) for d in runnable)
        # run as a script of its code cells, judged on the script's rows
        elif runnable and path in notebooks:
            program = notebooks[path]
            judged = _judge_all(
                options, list(map(program.in_program, runnable)), programs.runs(path, runnable)
            )
            fixed = programs.fixed_modules.get(str(path.resolve()))
            verdicts.extend(
                _in_cells(verdict, finding, path, program, fixed)
                for verdict, finding in zip(judged, runnable)
            )
        elif runnable and is_program(path):
            verdicts.extend(_judge_all(options, runnable, programs.runs(path, runnable)))
        elif runnable:
            helpers[path] = runnable
    named = [path for path in options.paths if path.is_file() and is_program(path)]
    loaders: set[Path] = set()  # entry points whose runs judged a helper's findings
    for helper, diagnostics in helpers.items():
        candidates = [
            *programs,
            *named,
            *(f for f in report.files if f not in by_file and is_program(f)),
        ]
        entry = programs.loading(helper, dict.fromkeys(candidates))
        if entry is None:
            verdicts.extend(
                Verdict(
                    d,
                    "static-only",
                    detail="no entry point here loads this module "
                    "(name one: seedlint verify train.py helpers.py)",
                )
                for d in diagnostics
            )
        else:
            loaders.add(entry)
            verdicts.extend(_judge_all(options, diagnostics, programs.runs(entry, diagnostics)))
    for path in named:  # a program named on the command line without findings: do its runs agree?
        if path not in by_file and path not in loaders:
            missing = programs.missing(path)
            if missing is not None:
                verdicts.append(Verdict(None, "needs-module", detail=missing, path=path))
                continue
            verdict = judge_program(path, programs.runs(path, []).original)
            verdicts.append(
                _in_cells(verdict, None, path, notebooks[path]) if path in notebooks else verdict
            )
    return verdicts


def _not_run(code: str, has_cuda: bool) -> str | None:
    """Why a rule's findings are not run (`needs-cuda`, `static-only`), or None when they are."""
    if probe_of(code) is None:
        return "static-only"
    return "needs-cuda" if needs_cuda(code) and not has_cuda else None


def _program(path: Path) -> Program | None:
    """A notebook's code cells as the script verify runs (magics dropped), None if it cannot be
    read."""
    try:
        return read_program(path.read_bytes())
    except (OSError, NotebookError):
        return None


def _missing_library(code: str) -> str | None:
    """`needs LIBRARY` when a library the rule's example imports is not installed here."""
    missing = [name for name in RULES[code].libraries if importlib.util.find_spec(name) is None]
    return f"needs {missing[0]}" if missing else None


def _saves(text: str | None, path: Path) -> bool:
    """Whether a program's own text saves something (`torch.save(..)`, `save_checkpoint(..)`)."""
    if text is None:
        text = path.read_text(encoding="utf-8", errors="replace")
    return _SAVE_CALL.search(text) is not None


def _is_entry_point(path: Path) -> bool:
    return is_notebook(path) or is_entry_point(path.read_text(encoding="utf-8", errors="replace"))


def _in_cells(
    verdict: Verdict, finding, path: Path, program: Program, fixed: str | None = None
) -> Verdict:
    """A notebook's verdict, shown on its cells: the finding as linted, and every line of the
    script it was run as (evidence, the program's failure, tracebacks) as `cell N:row`; the lines
    of the fixed script (`fixed`), where the fix added some, as the unfixed lines they match."""
    if finding is not None:
        verdict.diagnostic = finding
    script = str(path.resolve())
    unfixed = _line_map(fixed, program.text) if fixed is not None else {}

    def cell_of(line: int, of_fixed: bool = False) -> str:
        cell, location = program.cell_location(
            Location(unfixed.get(line, line) if of_fixed else line, 1)
        )
        return f"cell {cell}:{location.row}"

    def in_cells(where: str | None, of_fixed: bool = False) -> str | None:
        if where is None or not where.startswith(script + ":"):
            return where
        return f"{script}:{cell_of(int(where.rpartition(':')[2]), of_fixed)}"

    for name in ("evidence", "fix_evidence"):
        evidence = getattr(verdict, name)
        if evidence is not None:
            where = in_cells(evidence.where, of_fixed=name == "fix_evidence")
            setattr(verdict, name, replace(evidence, where=where))
    if verdict.program_failure is not None:
        verdict.program_failure = {
            **verdict.program_failure,
            "where": in_cells(verdict.program_failure["where"]),
        }
    of_fixed = verdict.fix_status == "error"  # the detail is the fixed program's failure
    verdict.detail = re.sub(
        rf'(File "{re.escape(script)}"), line (\d+)',
        lambda match: f"{match[1]}, {cell_of(int(match[2]), of_fixed).replace(':', ', line ')}",
        verdict.detail,
    )
    return verdict


def _line_map(fixed: str, unfixed: str) -> dict[int, int]:
    """Each line of the fixed text (1-based) -> the unfixed line it is, or the one above a line the
    fix added."""
    matcher = difflib.SequenceMatcher(None, unfixed.splitlines(), fixed.splitlines(), False)
    lines, last = {}, 1
    for tag, old_start, _, new_start, new_end in matcher.get_opcodes():
        for offset in range(new_end - new_start):
            if tag == "equal":
                last = old_start + offset + 1
            lines[new_start + offset + 1] = last
    return lines


def _judge_all(options: VerifyOptions, diagnostics: list, runs: FileRuns) -> list[Verdict]:
    verdicts = []
    for diagnostic in diagnostics:
        fixable = (
            None
            if not options.fix_check
            else options.fixed_text is not None
            or (
                diagnostic.fix is not None
                and diagnostic.fix.applicability is not Applicability.DISPLAY_ONLY
            )
        )
        verdicts.append(
            _judge_ranks(diagnostic, runs, fixable)
            if options.nproc_per_node
            else judge(diagnostic, runs, fixable)
        )
    return verdicts


class _Programs:
    """The runs of each entry point (original, then fixed), made once and shared by every finding
    judged from them; the extra runs a probe needs are added when a finding needs them."""

    _MAX_SEARCHED = 3  # entry points without findings run only to find one that loads a helper

    def __init__(
        self,
        options: VerifyOptions,
        fixed_modules: dict[str, str],
        progress: Callable[[str], None],
        scripts: dict[str, str],
    ):
        self.options, self.fixed_modules, self.progress = options, fixed_modules, progress
        self.scripts = (
            scripts  # the text to run for files that are not Python (a notebook's code cells)
        )
        self._runs: dict[Path, FileRuns] = {}
        self._missing: dict[Path, str | None] = {}  # `missing`, once per program

    def __iter__(self):
        return iter(list(self._runs))

    def runs(self, path: Path, diagnostics: list) -> FileRuns:
        configurations = self._configurations(path)
        runs = self._runs.setdefault(path, FileRuns())
        probes = {probe_of(d.code) for d in diagnostics}
        watched = None if self.options.nproc_per_node else _watched(diagnostics)
        covered = watched is not None and set(watched) <= runs.watched
        if any(run.stopped for run in [*runs.original, *runs.fixed]) and not covered:
            runs.original = runs.fixed = []  # stopped at a divergence another finding needs past
        if probes - {Probe.RESUME} or not probes:
            if not runs.original:
                fixed = ", then the fixed version)" if len(configurations) > 1 else ")"
                self.progress(f"running {path} ({self.options.runs} runs{fixed}")
                made = (
                    self._compared(path, configurations, watched)
                    if watched
                    else self._run(path, configurations, [{}] * self.options.runs)
                )
                runs.original, runs.fixed = made[: self.options.runs], made[self.options.runs :]
                runs.watched = set(watched or ())
                if any(run.crashed for run in runs.fixed) and all(r.stopped for r in runs.original):
                    # the fixed program fails: does the program, where the compared runs stopped?
                    runs.unstopped = self._run(path, configurations[:1], [{}])
        if Probe.RESUME in probes and not runs.resumed:
            self.progress(f"resuming {path} (stopped after its first checkpoint, run again)")
            runs.resumed = [
                run
                for sources in configurations
                for run in run_resumed(_plan(self.options, path, sources))
            ]
        if any(seed_sensitive(d) for d in diagnostics) and not runs.shifted:  # every seed shifted
            runs.shifted = self._run(path, configurations, [{"seed_offset": SEED_OFFSET}])
        # under two hash seeds
        if Probe.HASH_ORDER in probes and not runs.hashed:
            runs.hashed = self._run(
                path,
                configurations,
                [{"environment": {"PYTHONHASHSEED": seed}} for seed in HASH_SEEDS],
            )
        return runs

    def _run(
        self, path: Path, configurations: list[dict[str, str]], variants: list[dict]
    ) -> list[Run]:
        """A run of each variant of the plan (`_plan`'s keywords) under each configuration in turn,
        `jobs` at a time; a program that saves runs in scratch directories (no run resumes from
        another's checkpoint, and none is left in the user's directory)."""
        contained = _saves(self.scripts.get(str(path.resolve())), path)
        return run_all(
            [
                _plan(self.options, path, sources, contained=contained, **variant)
                for sources in configurations
                for variant in variants
            ],
            self.options.jobs,
        )

    def _compared(
        self, path: Path, configurations: list[dict[str, str]], watched: list
    ) -> list[Run]:
        """The runs of each configuration side by side, compared as they go: they stop once they
        have diverged in every family the findings are about (the verdict cannot change)."""
        contained = _saves(self.scripts.get(str(path.resolve())), path)
        made = []
        for number, sources in enumerate(configurations):
            label = f"{path.name}{' fixed' if number else ''}, runs 1-{self.options.runs}"
            comparison = Comparison(watched, label, self.options.runs, self.progress)
            plan = _plan(self.options, path, sources, contained=contained)
            plans = [
                replace(plan, comparison=comparison, place=place)
                for place in range(self.options.runs)
            ]
            made += run_all(plans, self.options.runs)
        return made

    def loading(self, helper: Path, candidates: Iterable[Path]) -> Path | None:
        """The first candidate entry point whose program loads `helper` (run if it was not yet)."""
        searched = 0
        for entry in candidates:
            if self.missing(entry) is not None:
                continue
            if entry not in self._runs:
                if searched == self._MAX_SEARCHED:
                    break
                searched += 1
            runs = self.runs(entry, [])
            if runs.original and str(helper.resolve()) in runs.original[0].loaded:
                return entry
        return None

    def missing(self, path: Path) -> str | None:
        """The line saying which module the program imports that this interpreter lacks (said
        once, before any run), or None."""
        if path not in self._missing:
            text = self.scripts.get(str(path.resolve()))
            if text is None:
                text = path.read_text(encoding="utf-8", errors="replace")
            module = missing_module(text, path.resolve().parent)
            self._missing[path] = (
                None
                if module is None
                else f"{path} imports {module}, which {sys.executable} does not have: "
                f"install it there, or run seedlint from the environment that has it"
            )
            if module is not None:
                self.progress(f"not running {path}: {self._missing[path]}")
        return self._missing[path]

    def _configurations(self, path: Path) -> list[dict[str, str]]:
        """The sources of each configuration: the original, then (fix check) the fixed modules."""
        if not self.options.fix_check:
            return [dict(self.scripts)]
        given = self.options.fixed_text(path) if self.options.fixed_text is not None else None
        fixed = {
            **self.fixed_modules,
            **({str(path.resolve()): given} if given is not None else {}),
        }
        return [dict(self.scripts), {**self.scripts, **fixed}] if fixed else [dict(self.scripts)]


def _watched(diagnostics: list) -> list[tuple[str, ...] | None] | None:
    """The families of generators whose first divergence confirms every finding (None: a finding
    whose evidence needs whole runs: an epoch's order, a worker's batches, ...)."""
    families = []
    for diagnostic in diagnostics:
        if probe_of(diagnostic.code) not in _RUN_TO_RUN or seed_sensitive(diagnostic):
            return None
        families.append(family_of(diagnostic))
    return list(dict.fromkeys(families)) or None


def _fixed_sources(runner: Runner, by_file: dict[Path, list]) -> dict[str, str]:
    """The fixed text (safe and unsafe fixes) of every flagged file a fix changes, by absolute path:
    the fixed program is the entry point and the helper modules it imports, all fixed in memory."""
    sources = {}
    for path in by_file:
        fixed = runner.linter_for(path).lint(path, path.read_bytes(), "unsafe")
        if fixed.changed:
            sources[str(path.resolve())] = fixed.source.text
    return sources


def _plan(
    options: VerifyOptions,
    path: Path,
    sources: dict[str, str],
    seed_offset: int = 0,
    environment: dict[str, str] | None = None,
    contained: bool = False,
) -> RunPlan:
    return RunPlan(
        path,
        options.script_args,
        sources,
        options.timeout,
        seed_offset=seed_offset,
        nproc_per_node=options.nproc_per_node,
        environment=environment or {},
        progress=options.progress,
        contained=contained,
    )


def _judge_ranks(diagnostic, runs: FileRuns, fixable: bool | None) -> Verdict:
    """Judge a finding on every rank; the verdict is rank 0's, or the first confirming rank's, with
    all listed."""
    verdicts = [judge(diagnostic, rank_runs, fixable) for rank_runs in per_rank(runs)]
    if not verdicts:
        return judge(diagnostic, runs, fixable)
    chosen = next((v for v in verdicts if v.status == "confirmed"), verdicts[0])
    chosen.detail = "; ".join(
        f"rank {rank}: {v.status}" + (f" -> {v.fix_status}" if v.fix_status else "")
        for rank, v in enumerate(verdicts)
    ) + (f"\n{chosen.detail}" if chosen.detail else "")
    chosen.ranks = [v.status for v in verdicts]
    return chosen


def _fixed_here(code: str) -> bool:
    """Whether the installed torch no longer has the problem the rule is about (so it is off)."""
    fixed_in, installed = RULES[code].fixed_in_torch, installed_torch_version()
    return fixed_in is not None and installed is not None and installed >= fixed_in


def _unflagged(runs: list, example: Path, code: str) -> Verdict:
    """The example of a rule that is off for the installed torch, run as a plain program."""
    verdict = judge_program(example, runs)
    fixed_in = ".".join(map(str, RULES[code].fixed_in_torch))
    verdict.detail = f"{code} is off: torch {fixed_in} and newer do not have the problem" + (
        f"\n{verdict.detail}" if verdict.detail else ""
    )
    return verdict


def verify_examples(
    options: VerifyOptions,
    progress: Callable[[str], None] = lambda _: None,
) -> Iterator[ExampleRow]:
    """Every rule page's example (with the page's fixed version as the fix) and its fixed version,
    run here: `jobs` examples at once, and an example's runs at once when there are more jobs than
    examples (a CUDA run spends seconds starting its context); the rows in the rules' order, each
    as soon as it is known."""
    pages = {
        code: texts
        for code in sorted(expand_all(options.select) if options.select else RULES)
        if code != "SL000" and (texts := page_examples(code)) is not None
    }
    # asked once
    has_cuda = options.device == "cuda" or (options.device == "auto" and cuda_available())
    each = replace(
        options,
        device="cuda" if has_cuda else "cpu",
        jobs=max(1, options.jobs // max(1, len(pages))),
    )
    with tempfile.TemporaryDirectory(prefix="seedlint-examples-") as directory:
        yield from concurrently(
            lambda code: _example_row(each, code, pages[code], Path(directory), progress),
            list(pages),
            options.jobs,
        )


def _example_row(
    options: VerifyOptions,
    code: str,
    pages: tuple[str, str],
    directory: Path,
    progress: Callable[[str], None],
) -> ExampleRow:
    """What a rule page's example and its fixed version do here (in a directory of their own)."""
    status = _not_run(code, options.device == "cuda") or _missing_library(code)
    if status is not None:
        return ExampleRow(code, status, None)
    (directory := directory / code.lower()).mkdir()
    example, fixed = directory / f"{code.lower()}.py", directory / f"{code.lower()}_fixed.py"
    example.write_text(pages[0], encoding="utf-8")
    fixed.write_text(pages[1], encoding="utf-8")
    settings = dict(select=[code], fixed_text=lambda _, text=pages[1]: text)
    found = [
        v
        for v in verify(replace(options, paths=[example], **settings), progress)
        if v.diagnostic is not None and v.diagnostic.code == code
    ]
    clean = verify(replace(options, paths=[fixed], select=[code], fix_check=False), progress)
    if not found and _fixed_here(code):  # the rule is off for this torch: does the problem show?
        found = [_unflagged(run_all([_plan(options, example, {})] * options.runs), example, code)]
    return ExampleRow(code, found[0] if found else "not-flagged", clean[0] if clean else None)
