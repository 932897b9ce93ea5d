"""`seedlint check` without the command line: find files, lint them, write fixes, report."""

from __future__ import annotations

import difflib
import errno
import gc
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from seedlint import __version__
from seedlint.analysis.modules import ModuleFinder, neighbourhood
from seedlint.cache import Store, cache_directory, code_version
from seedlint.config import Config, ConfigResolver, installed_torch_version, installed_version
from seedlint.diagnostics import Diagnostic
from seedlint.discovery import collect_files
from seedlint.facts import Fingerprint, News, ProjectFacts, fingerprint
from seedlint.files import display_path, replace_atomically
from seedlint.gates import (
    MAY_SEED,
    RUN_SEEDED,
    TRAINED,
    asks_for_trainers,
    contains_any,
    program_kinds,
)
from seedlint.notebook import Notebook, NotebookError, is_notebook, read_program
from seedlint.parallel import Pool, available_cpus
from seedlint.results import LintResult
from seedlint.rules import RULES
from seedlint.selection import (
    enabled_codes,
    fixable_codes,
    ignored_for_file,
    matches,
    validate,
)
from seedlint.source import ParseLimits

# the linter and the analysis load the parser: only files the cache does not know need them
if TYPE_CHECKING:
    import libcst as cst

    from seedlint.analysis.context import AnalysisSettings
    from seedlint.linter import Linter
    from seedlint.parsing import Layout

T = TypeVar("T")
# Between two files, a process drops the trees asked for least recently beyond `_KEPT_SOURCE`
# characters of source (at most about 0.5 GB of memory: a lean tree and its index take about 30
# bytes a character; half as many made a serial cold run over torch's tree parse 40% of its modules
# twice), and those of other projects (import roots) no file asked for among the last
# `_UNUSED_FOR` (a tree of many projects is read project by project)
_KEPT_SOURCE = 16_000_000
_UNUSED_FOR = 300


@dataclass
class CheckOptions:
    paths: list[Path]
    select: list[str] | None = None
    extend_select: list[str] | None = None
    ignore: list[str] | None = None
    fixable: list[str] | None = None
    unfixable: list[str] | None = None
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    config: Path | None = None
    isolated: bool = False
    force_exclude: bool = False
    stdin_filename: Path | None = None
    target_torch_version: tuple[int, int] | None = None
    cache: bool = True
    cache_dir: Path | None = None
    jobs: int | None = None  # worker processes (None: one per available CPU)


@dataclass
class CheckReport:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fixed: Counter = field(default_factory=Counter)
    fixed_by_file: dict[Path, Counter] = field(default_factory=dict)
    diff: str = ""
    stdin_output: str | None = None
    files_checked: int = 0
    files: list[Path] = field(default_factory=list)  # the files linted, in order
    # rules that failed on a file: seedlint bugs to report
    errors: list[str] = field(default_factory=list)
    # what the run could not do (walk a link, write a fix)
    warnings: list[str] = field(default_factory=list)
    workers: int = 0  # the processes that analysed files beside this one (0: all analysed here)


class Runner:
    """Lints files with the rules and settings their config file asks for."""

    def __init__(self, options: CheckOptions) -> None:
        self.options = options
        self.resolver = ConfigResolver(options.config, options.isolated)
        self._linters: dict[tuple, Linter] = {}
        self.facts: ProjectFacts | None = None
        self._project_gates: frozenset[bytes] = frozenset()
        self._validated: set[int] = set()
        self._dropped = 0  # the source whose trees were dropped since the last collection
        # a language server's workspace files: (modification time, size) -> whether they may train
        self._trains: dict[str, tuple[tuple[int, int], bool]] = {}
        self._installed_torch = installed_torch_version()  # the default target; None: the newest
        self._cli = {
            "select": options.select,
            "extend_select": options.extend_select,
            "ignore": options.ignore,
            "fixable": options.fixable,
            "unfixable": options.unfixable,
        }

    def _config(self, path: Path) -> Config:
        config = self.resolver.for_path(path)
        if id(config) not in self._validated:
            validate(config)
            self._validated.add(id(config))
        return config

    def linter_for(self, path: Path) -> Linter:
        from seedlint.linter import Linter  # libcst: only when a file must be analysed

        config = self._config(path)
        codes = enabled_codes(config, self._cli) - ignored_for_file(config, path)
        key = (id(config), frozenset(codes))
        linter = self._linters.get(key)
        if linter is None:
            linter = Linter(
                [RULES[code]() for code in sorted(codes)],
                self._settings(config),
                fixable_codes(config, self._cli),
            )
            self._linters[key] = linter
        return linter

    def settings_key(self, path: Path) -> str:
        """What a file's findings depend on in its configuration, as the config file and the command
        line write it (the same words select the same rules in the same seedlint)."""
        config = self._config(path)
        ignores = sorted(
            sorted(codes)
            for pattern, codes in config.per_file_ignores.items()
            if matches(path, config.root, pattern)
        )
        return repr(
            (
                config.select,
                config.extend_select,
                config.ignore,
                ignores,
                config.fixable,
                config.unfixable,
                sorted(config.seed_functions.items()),
                self._target_version(config),
                self.limits(path),
            )
        )

    def limits(self, path: Path) -> ParseLimits:
        """What a file may hold to be parsed, by its config."""
        return self._config(path).limits

    def _target_version(self, config: Config) -> tuple[int, int] | None:
        return (
            self.options.target_torch_version
            or config.target_torch_version
            or self._installed_torch
        )

    def _settings(self, config: Config) -> AnalysisSettings:
        # libcst: only when a file must be analysed
        from seedlint.analysis.context import AnalysisSettings

        return AnalysisSettings(
            dict(config.seed_functions),
            self._target_version(config),
            self.facts.project,
            self._project_gates,
            config.limits,
        )

    def prepare(self, files: list[Path], summaries: dict | None = None) -> None:
        """Set up the run's project facts before any linter exists, so every rule sees other
        modules' seeding (with `summaries`: a worker process's, which knows the parent's summaries
        and writes no cache)."""
        store = self._store() if summaries is None else None
        finder = ModuleFinder.for_files(files, folders=self._given_roots())
        # where callers are looked for: the linted files and the modules beside each script (one
        # file checked alone, by pre-commit or `verify`, still sees the script that calls it)
        finder.project_files = neighbourhood(files, finder.known_roots)
        self.facts = ProjectFacts(
            finder,
            self._seed_functions(files),
            store,
            summaries,
            self._parse_project_module,
            self._lean_project_module,
        )

    def _given_roots(self) -> list[Path]:
        """The folders given to check that are not packages: a project's root, checked from
        elsewhere, is where its scripts import their helpers from (`from utils.seeding import ..`
        with no `__init__.py` in `utils`), as when it is checked from there."""
        return [
            path
            for path in self.options.paths
            if path.is_dir() and not (path / "__init__.py").is_file()
        ]

    def _parse_project_module(self, path: Path, text: str) -> Layout:
        """A module the run's project index keeps (until `between_files` drops it), parsed in full
        (`_kept`)."""
        from seedlint.parsing import parse  # libcst: only when a module must be analysed

        return _kept(lambda: parse(text, self.limits(path)))

    def _lean_project_module(self, path: Path, text: str) -> tuple[cst.Module, dict] | None:
        """A module the run's project index keeps (until `between_files` drops it), built lean
        (`_kept`)."""
        from seedlint.parsing import lean_parse  # libcst: only when a module must be analysed

        return _kept(lambda: lean_parse(text, self.limits(path)))

    def _seed_functions(self, files: list[Path]) -> dict[str, frozenset[str]]:
        configs = {
            id(config): config for config in map(self.resolver.for_path, files or [Path.cwd()])
        }
        return {
            name: targets
            for config in configs.values()
            for name, targets in config.seed_functions.items()
        }

    def lint_buffer(
        self, path: Path, data: bytes, finder: ModuleFinder, fix: str | None = None
    ) -> LintResult:
        """One file's findings from an editor's bytes, over `finder`'s view of the other files,
        keeping the project facts between calls (what a language server does on each edit)."""
        # the buffer is what it imports of itself
        finder.unsaved = {
            **finder.unsaved,
            os.path.abspath(path): data,
        }
        seed_functions = self._seed_functions([path])
        if self.facts is None or self.facts.seed_functions != seed_functions:
            # libcst: only when a buffer must be analysed
            from seedlint.parsing import Reparser, lean_parse

            reparser = Reparser()
            self.facts = ProjectFacts(
                finder,
                seed_functions,
                parser=lambda path, text: reparser.parse(path, text, self.limits(path)),
                lean_parser=lambda path, text: lean_parse(text, self.limits(path)),
            )
        else:
            self.facts = self.facts.renewed(finder)
        self._linters.clear()  # their settings hold the previous facts' project index
        # The seeding helpers of the modules beside it and of the project modules it imports (one
        # file is checked at a time: no run over the whole project has found the helpers elsewhere).
        imported = [
            found[0]
            for found in map(finder.read, finder.imports_of(path, _code_of(path, data)))
            if found is not None and contains_any(found[1], MAY_SEED)
        ]
        self._project_gates = self.facts.gates([path, *imported])
        self.use_gates(self._project_gates | self._trainers_of(path, data, finder))
        known = self._known(path) if fix is None else None
        if known is not None:
            return LintResult(path, known)
        result = self.linter_for(path).lint(path, data, fix)
        if fix is None:
            self._remember(path, fingerprint(path, data, self._project_gates), result)
        return result

    def _trainers_of(self, path: Path, data: bytes, finder: ModuleFinder) -> frozenset[bytes]:
        """The gates saying which programs of the project train the file, when a rule asks for
        them: a language server's buffer, judged like the same file in a run over the project."""
        if not asks_for_trainers(self.linter_for(path).rules, data):
            return frozenset()
        programs = [file for file in finder.project_files if self._may_train(file, finder)]
        return frozenset(
            gate
            for gate in self.facts.gates(programs, neighbours=False)
            if gate.startswith((TRAINED, RUN_SEEDED))
        )

    def _may_train(self, file: Path, finder: ModuleFinder) -> bool:
        """Whether a project file's bytes may be a training program: an unsaved buffer's read
        each time, a file on disk's kept while its size and modification time hold."""
        key = os.path.abspath(file)
        try:
            if key in finder.unsaved:
                return bool(program_kinds(finder.unsaved[key]))
            status = os.stat(key)
            stamp = (status.st_mtime_ns, status.st_size)
            known = self._trains.get(key)
            if known is None or known[0] != stamp:
                known = self._trains[key] = (stamp, bool(program_kinds(finder.read_bytes(file))))
        except OSError:
            return False
        return known[1]

    def between_files(self, path: Path) -> None:
        """Before a file's gates or findings, the trees kept beyond `_KEPT_SOURCE` and
        `_UNUSED_FOR` are dropped (the summaries are kept), so that memory does not grow with the
        tree. A dropped tree is freed at once (`ModuleIndex.unlink`); what cycles remain are
        collected now and then (a collection walks every tree kept)."""
        project = self.facts.project_if_set_up if self.facts is not None else None
        if project is None:
            return
        root = self.facts.finder.import_root(path)
        self._dropped += project.trim_trees(_KEPT_SOURCE, _UNUSED_FOR, root)
        if self._dropped > 4 * _KEPT_SOURCE:
            self._dropped = 0
            gc.unfreeze()  # the trees were frozen when kept (`_kept`)
            gc.collect()
            gc.freeze()

    def computed_gates(self, file: Path) -> tuple[frozenset[bytes], dict, bool]:
        self.between_files(file)
        return self.facts.computed_gates(file)

    def use_gates(self, gates: frozenset[bytes]) -> None:
        if gates != self._project_gates:
            self._project_gates = gates
            self._linters.clear()  # their settings carry the gates

    def analyse(self, path: Path, data: bytes) -> LintResult:
        self.between_files(path)
        return self.linter_for(path).lint(path, data, self.fix_mode)

    def _store(self) -> Store | None:
        """The cache of this run's project facts (None: `--no-cache`, or nowhere to write)."""
        if not self.options.cache:
            return None
        directory = cache_directory(self.resolver.for_path(Path.cwd()).root, self.options.cache_dir)
        if directory is None:
            return None
        key = (
            code_version(),
            sys.version,
            installed_version("libcst"),
            self.options.isolated,
            str(self.options.config),
            self._cli,
            self.options.target_torch_version,
        )
        return Store.for_run(directory, __version__, key)

    @property
    def fix_mode(self) -> str | None:
        if not (self.options.fix or self.options.diff):
            return None
        return "unsafe" if self.options.unsafe_fixes else "safe"

    def run(self, stdin: bytes | None = None) -> CheckReport:
        report = CheckReport()
        if stdin is not None:
            path = self.options.stdin_filename or Path("-")
            self.prepare([path])
            self._project_gates = self.facts.gates([path])
            result = self.analyse(path, stdin)
            self._record(report, result)
            if self.options.fix and result.source is not None:
                report.stdin_output = (
                    result.program.notebook.text if result.program else result.source.text
                )
            return report
        files = list(
            collect_files(
                self.options.paths,
                self.resolver,
                self.options.force_exclude,
                report.warnings.append,
            )
        )
        report.files = files
        self.prepare(files)
        worker_options = replace(self.options, cache=False)
        pool = Pool(
            available_cpus() if self.options.jobs is None else self.options.jobs,
            _start_worker,
            lambda: (worker_options, files, self.facts.known_summaries),
        )
        try:
            # the files and the modules beside their scripts (`prepare` found them)
            self._project_gates = self.facts.gates(
                self.facts.finder.project_files,
                lambda stale: _merged(
                    pool.map(_gates_in_worker, stale, self._gates_here, _size), self.facts.absorb
                ),
                neighbours=False,
            )
            self._check(files, pool, report)
        finally:
            pool.close()
        report.workers = pool.jobs if pool.used else 0
        report.errors[:0] = self.facts.errors
        self.facts.save()
        return report

    def _gates_here(self, files: list[Path]) -> list[tuple]:
        return [(self.computed_gates(file), _NO_NEWS) for file in files]

    def _check(self, files: list[Path], pool: Pool, report: CheckReport) -> None:
        """Every file's findings, in order: known ones where nothing they depend on changed (and no
        fix of them is to be applied), the others read and analysed (in the pool when it pays:
        each worker reads its files) and remembered."""
        results: dict[int, LintResult] = {}
        pending: list[tuple[int, Path]] = []
        for position, path in enumerate(files):
            try:
                # a file whose stamp holds is not read
                known = self._known(path)
            except OSError as error:
                results[position] = _unreadable(path, error)
                continue
            if known is None:
                pending.append((position, path))
            else:
                results[position] = LintResult(path, known)
        gates = self._project_gates
        linted = _merged(
            pool.map(
                _lint_in_worker,
                [(path, gates) for _, path in pending],
                self._lint_here,
                lambda item: _size(item[0]),
                lambda item: item[0],  # a file is linted where its gates were found
            ),
            self.facts.absorb,
        )
        read: dict[int, bytes] = {}  # the bytes of the files the fixes change
        for (position, path), (result, data, key) in zip(pending, linted):
            results[position] = result
            if data is not None:
                read[position] = data
            elif key is not None:
                self._remember(path, key, result)
        for position in range(len(files)):
            result = results[position]
            if result.unread:
                report.diagnostics.extend(result.diagnostics)
                continue
            if result.changed and not self.options.diff:
                result = self._written(result, read[position], report)
            self._record(report, result)
            if result.changed and self.options.diff:
                report.diff += _unified_diff(result.path, result, read[position])

    def lint_file(self, path: Path) -> tuple[LintResult, bytes | None, Fingerprint | None]:
        """A file read and linted; the bytes read where its fixes change them (to write or show),
        else what the cache keys its findings by (None: unreadable)."""
        try:
            data = self.facts.finder.read_bytes(path)
        except OSError as error:
            return _unreadable(path, error), None, None
        result = self.analyse(path, data)
        if result.changed:
            return result, data, None
        result.source = result.original = None  # not needed any more: spare the pickling
        return result, None, fingerprint(path, data, self._project_gates)

    def _written(self, result: LintResult, data: bytes, report: CheckReport) -> LintResult:
        """Write a file's fixes; a file changed on disk since it was read is read and fixed again
        (once), and one that cannot be written keeps its findings, unfixed, with a warning."""
        path = result.path
        for attempt in (1, 2):
            try:
                write_atomically(path, result, data)
            except FileChanged as changed:
                data = changed.data
                if attempt == 2:
                    report.warnings.append(
                        f"{display_path(path)}: not fixed, it keeps changing on disk"
                    )
                    break
                result = self.analyse(path, data)  # what is on disk now, fixed
                if not result.changed:
                    return result
                continue
            except OSError as error:
                report.warnings.append(
                    f"{display_path(path)}: not fixed, cannot write it ({error.strerror or error})"
                )
                break
            self._remember(path, fingerprint(path, result.output(), self._project_gates), result)
            return result
        return self.linter_for(path).lint(path, data)  # its findings, unfixed

    def _lint_here(self, batch: list[tuple[Path, frozenset[bytes]]]) -> list[tuple]:
        return [(self.lint_file(path), _NO_NEWS) for path, _ in batch]

    def _known(self, path: Path) -> list[Diagnostic] | None:
        """A file's findings from the cache, unless a fix of them is to be applied (raises
        OSError when it cannot be read)."""
        known = self.facts.findings(path, self.settings_key(path), self._project_gates)
        mode = self.fix_mode
        if (
            known is not None
            and mode
            and any(
                d.code in self.linter_for(path).fixable and d.fixable(mode == "unsafe")
                for d in known
            )
        ):
            return None
        return known

    def _remember(self, path: Path, fingerprint: Fingerprint, result: LintResult) -> None:
        if not result.errors:  # a rule that failed is reported again on the next run
            self.facts.remember(
                path,
                fingerprint,
                self.settings_key(path),
                self._project_gates,
                result.diagnostics,
                result.reads,
            )

    def _record(self, report: CheckReport, result: LintResult) -> None:
        report.files_checked += 1
        report.diagnostics.extend(result.diagnostics)
        report.errors.extend(dict.fromkeys(result.errors))
        if result.fixed:
            report.fixed.update(result.fixed)
            report.fixed_by_file[result.path] = result.fixed


# ---------------------------------------------------------------------- in the pool's workers
# Each worker holds a runner of its own (its project index, parsed modules and summaries) for the
# whole run, and is handed chunks of neighbouring files, which tend to read the same helpers.
# Results come back with the summaries computed and the index errors met, so the parent's project
# facts caches them as if it had done the work; the pool keeps the files' order, so the output is
# the same as a serial run's.
_WORKER: Runner | None = None  # in a worker process: its runner
_NO_NEWS = News({}, [], {}, {})  # of work done in the parent, which learnt it first-hand


def _start_worker(options: CheckOptions, files: list[Path], summaries: dict) -> None:
    global _WORKER
    _WORKER = Runner(options)
    _WORKER.prepare(files, summaries)


def _gates_in_worker(files: list[Path]) -> list[tuple[tuple[frozenset[bytes], dict, bool], News]]:
    """Modules' gates (with what was read to find them, and whether it failed), and what the
    worker learnt meanwhile."""
    return [(_WORKER.computed_gates(file), _WORKER.facts.news()) for file in files]


def _lint_in_worker(
    batch: list[tuple[Path, frozenset[bytes]]],
) -> list[tuple[tuple[LintResult, bytes | None, Fingerprint | None], News]]:
    """Read and lint files (`Runner.lint_file`); each result comes with what the worker learnt
    since the last (`ProjectFacts.news`)."""
    results = []
    for path, gates in batch:
        _WORKER.use_gates(gates)
        results.append((_WORKER.lint_file(path), _WORKER.facts.news()))
    return results


def _kept(parse: Callable[[], T]) -> T:
    """A syntax tree the run keeps (hundreds of thousands of objects for a large module; a
    dropped one is freed by reference counting, `ModuleIndex.unlink`), moved out of the garbage
    collector's sight: every full collection would otherwise walk all the trees kept so far,
    which took a third of a cold run's time on torch's tree. The garbage made since the last tree
    was kept is collected first (a collection walks only what is not frozen), so that no cycle of
    it is frozen with the tree (a batch run is one short process: the language server does not
    come here). The collector stays off until the tree is frozen: once on, it would walk the new
    tree's objects at once (they are all young)."""
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        tree = parse()
        gc.freeze()
    finally:
        if collecting:
            gc.enable()
    return tree


def _merged(outputs: Iterable[tuple[T, News]], absorb: Callable[[News], None]) -> list[T]:
    """The results of worker outputs, what the workers learnt handed to `absorb`."""
    values = []
    for value, news in outputs:
        absorb(news)
        values.append(value)
    return values


def _unreadable(path: Path, error: OSError) -> LintResult:
    # libcst: rare, and the run analyses files anyway
    from seedlint.linter import unreadable

    return LintResult(path, [unreadable(path, error.strerror or str(error))], unread=True)


def _size(path: Path) -> int:
    """A file's size (what its parse costs, roughly); 0 when it cannot be read."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _code_of(path: Path, data: bytes) -> bytes:
    """A file's Python code: its bytes, or a notebook's code cells."""
    if not is_notebook(path):
        return data
    try:
        return read_program(data).text.encode()
    except NotebookError:
        return b""


def _unified_diff(path: Path, result: LintResult, data: bytes) -> str:
    """The fixes as a unified diff; for a notebook, one per changed cell (`nb.ipynb:cell 3`)."""
    name = display_path(path)
    if result.program is None:
        return _diff(name, result.original, result.source.text)
    cells = zip(Notebook.read(data).cells, result.program.notebook.cells)
    return "".join(
        _diff(f"{name}:cell {old.number}", old.source, new.source)
        for old, new in cells
        if old.source != new.source
    )


def _diff(name: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=name, tofile=name
    )
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    return text + ("\n" if text else "")


class FileChanged(Exception):
    """The file on disk is not what was read (an editor saved it meanwhile): its new bytes."""

    def __init__(self, data: bytes) -> None:
        super().__init__("changed on disk")
        self.data = data


def write_atomically(path: Path, result: LintResult, read: bytes | None = None) -> None:
    """Replace a file's content in one step, keeping its encoding, line endings and mode: never a
    file that is read-only, nor one whose bytes are no longer `read` (FileChanged). A kill leaves
    the old or the new file."""
    if read is not None:
        current = path.read_bytes()
        if current != read:
            raise FileChanged(current)
    data = result.output()
    mode = path.stat().st_mode
    if not mode & 0o222:
        raise PermissionError(errno.EACCES, "the file is read-only")
    replace_atomically(path, data, mode & 0o7777, ".seedlint")
