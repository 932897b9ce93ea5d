"""Lint one source text: gate on byte patterns, parse once, run the rules, apply fixes."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

import libcst as cst

from seedlint.analysis.context import AnalysisSettings, FileContext
from seedlint.analysis.index import ModuleIndex
from seedlint.analysis.modules import module_name
from seedlint.analysis.programs import fails_on_import
from seedlint.diagnostics import Diagnostic, Edit, apply_edits
from seedlint.files import is_test
from seedlint.gates import Gate
from seedlint.noqa import file_noqa, line_noqa
from seedlint.notebook import NotebookError, Program, is_notebook, read_program
from seedlint.parsing import (
    Layout,
    LeanLayout,
    NotParsed,
    Unplaced,
    lean_parse,
    parse,
    python_compiles,
    syntax_tree,
)
from seedlint.results import LintResult
from seedlint.rules import RULES, Rule
from seedlint.source import Location, SourceDecodeError, SourceText, decode_source

_MAX_FIX_ROUNDS = 10
INVALID_SYNTAX = RULES["SL000"]
# Reported after the other rules: what their findings' noqa comments suppressed decides it.
UNUSED_NOQA = "SL100"


class Linter:
    """Runs a fixed set of rules over source texts."""

    def __init__(
        self, rules: Sequence[Rule], settings: AnalysisSettings, fixable: Collection[str] = ()
    ) -> None:
        self.rules = [rule for rule in rules if rule.code != INVALID_SYNTAX.code]
        self.enabled = frozenset(rule.code for rule in self.rules)
        self.settings = settings
        self.fixable = set(fixable)
        # The project's own seeding helpers make a file interesting to the rules that need seeding.
        self.gate = Gate(settings.seed_functions, settings.project_gates)
        self.test_gate = Gate(settings.seed_functions, settings.project_gates, for_tests=True)

    def _wanted(self, path: Path, data: bytes) -> list[Rule]:
        """The rules the file's bytes (and the programs that train it) let in."""
        gate = self.test_gate if is_test(path, data) else self.gate
        return gate.rules_for(self.rules, data, str(path))

    def lint(self, path: Path, data: bytes, fix: str | None = None) -> LintResult:
        """Lint file bytes; with fix="safe" or "unsafe", apply fixes until none applies."""
        if is_notebook(path):
            return self._lint_notebook(path, data, fix)
        try:
            text, encoding = decode_source(data)
        except SourceDecodeError as error:
            return LintResult(path, [unreadable(path, str(error))])
        wanted = self._wanted(path, data)
        source = SourceText(text, encoding)
        if not wanted:
            return LintResult(path, [], source, text)
        result = LintResult(path, [], source, text)
        result.diagnostics = self._diagnostics(path, source, wanted, result.errors, result.reads)
        if fix is not None:
            self._fix(result, wanted, fix == "unsafe")
        return result

    def _lint_notebook(self, path: Path, data: bytes, fix: str | None) -> LintResult:
        """Lint a notebook's code cells as one program; findings are placed in their cells, fixes
        written back into the cells they edit. A cell that does not parse is one SL000, and the
        others are still checked."""
        try:
            program = read_program(data)
        except NotebookError as error:
            return LintResult(path, [unreadable(path, str(error))])
        wanted = self._wanted(path, program.text.encode())
        result = LintResult(path, [], program.source, program.text, program=program)
        if not wanted:
            return result
        diagnostics = self._diagnostics(
            path, program.source, wanted, result.errors, result.reads, program
        )
        cell_errors = []
        unparsable = (
            program.unparsable() if any(d.code == INVALID_SYNTAX.code for d in diagnostics) else []
        )
        if unparsable:
            for piece, error in unparsable:
                row, column = program.error_location(piece, error)
                cell_errors.append(
                    _invalid_syntax(path, program.source, row, column, f"SyntaxError: {error.msg}")
                )
            cell_errors = [program.place(d) for d in cell_errors]
            program = program.without(piece for piece, _ in unparsable)
            result = LintResult(
                path,
                [],
                program.source,
                program.text,
                errors=result.errors,
                reads=result.reads,
                program=program,
            )
            diagnostics = self._diagnostics(
                path, program.source, wanted, result.errors, result.reads, program
            )
        result.diagnostics = diagnostics
        if fix is not None:
            self._fix(result, wanted, fix == "unsafe")
        result.diagnostics = sorted(
            [*map(result.program.place, result.diagnostics), *cell_errors], key=lambda d: d.sort_key
        )
        return result

    def _diagnostics(
        self,
        path: Path,
        source: SourceText,
        rules: Sequence[Rule],
        errors: list[str],
        reads: dict,
        program: Program | None = None,
    ) -> list[Diagnostic]:
        """The findings of `rules` on one text; a rule that fails is recorded in `errors`, the
        others still run, and the project modules the analysis read are added to `reads`."""
        project = self.settings.project
        parsed = project.parsed(path, source.text, lean=True) if project is not None else None
        # (an editor's buffer is parsed in full: its findings are shown as it is typed)
        if (parsed is None or isinstance(parsed[1], LeanLayout)) and not (
            project is not None and os.path.abspath(path) in project.finder.unsaved
        ):
            lean = self._lean_diagnostics(path, source, rules, reads, program, parsed)
            if lean is not None:
                return lean
        # in full (the analysis may have parsed it so meanwhile: a program's module); an editor's
        # buffer by the project, whose parser re-parses only the statements an edit touched
        if (
            project is not None
            and program is None
            and os.path.abspath(path) in project.finder.unsaved
        ):
            project.module_at(path, faithful=True)
        parsed = project.parsed(path, source.text) if project is not None else None
        try:
            layout = parsed[1] if parsed is not None else parse(source.text, self.settings.limits)
        except NotParsed as refusal:
            return [_invalid_syntax(path, source, refusal.row, refusal.column, refusal.message)]
        except cst.ParserSyntaxError as error:
            expanded = _indentation_expanded(source.text) if program is None else None
            if expanded is not None and _python_accepts(source.text) and _parses(expanded):
                # tabs and spaces mixed in indentation CPython reads as consistent: the findings
                # of the text with its indentation in spaces, placed back, and no fix offered
                found = self._diagnostics(
                    path, SourceText(expanded, source.encoding), rules, errors, reads
                )
                return [_placed_back(diagnostic, source) for diagnostic in found]
            return [_syntax_error(path, source, error)]
        except (RecursionError, MemoryError) as error:
            return [
                _invalid_syntax(
                    path,
                    source,
                    1,
                    0,
                    f"SyntaxError: too deeply nested to parse ({type(error).__name__})",
                )
            ]
        context = FileContext(
            path,
            source,
            layout,
            self._module_name(path),
            self.settings,
            program,
            parsed[0] if parsed is not None else None,
        )
        with project.recording() if project is not None else nullcontext({}) as read:
            findings = self._findings(context, rules, errors)
        reads.update(read)
        return findings

    def _module_name(self, path: Path) -> str:
        project = self.settings.project
        return project.finder.module_name(path) if project is not None else module_name(path)

    def _lean_diagnostics(
        self,
        path: Path,
        source: SourceText,
        rules: Sequence[Rule],
        reads: dict,
        program: Program | None,
        parsed: tuple[ModuleIndex, Layout] | None,
    ) -> list[Diagnostic] | None:
        """No findings, when the rules find none on a lean module (`parsing.lean_parse`: a
        fraction of a full parse's cost, and most linted files have no finding), the project's
        (`parsed`) or its own; None where the text must be parsed in full: a rule found something
        (whose position is needed), asked for a position, or failed."""
        project = self.settings.project
        if parsed is None:
            try:
                built = lean_parse(source.text, self.settings.limits)
            except NotParsed:
                return None
            if built is None:
                return None
            index, layout = None, LeanLayout(built[0], source)
        else:
            index, layout = parsed
        context = FileContext(
            path, source, layout, self._module_name(path), self.settings, program, index
        )
        errors: list[str] = []
        with project.recording() if project is not None else nullcontext({}) as read:
            try:
                findings = self._findings(context, rules, errors)
            except Unplaced:
                return None
        if findings or errors:
            return None
        reads.update(read)
        return findings

    def _findings(
        self, context: FileContext, rules: Sequence[Rule], errors: list[str]
    ) -> list[Diagnostic]:
        path, source = context.path, context.source
        file_codes = file_noqa(source.text)
        diagnostics = []
        seen: set[tuple] = set()
        # (row, code) of the findings that a noqa comment hid
        suppressed: set[tuple[int, str]] = set()
        # The noqa audit (SL100) runs last: it needs to know what the others' comments suppressed.
        for rule in sorted(rules, key=lambda rule: rule.code == UNUSED_NOQA):
            if file_codes is not None and (not file_codes or rule.code in file_codes):
                continue
            try:
                if rule.code == UNUSED_NOQA:
                    findings = list(rule.audit(source, suppressed, self.enabled, RULES))
                else:
                    findings = list(rule.check(context))
            except Exception as error:  # noqa: BLE001 - a rule's bug must not stop the run or lose findings
                errors.append(f"{rule.code} failed on {path}: {type(error).__name__}: {error}")
                continue
            for finding in findings:
                start, end = finding.span or context.layout.span(finding.node)
                if finding.end_node is not None:
                    end = context.layout.span(finding.end_node)[1]
                key = (rule.code, start, end)
                if key in seen:
                    continue
                seen.add(key)
                diagnostic = _diagnostic(rule, path, source, start, end, finding)
                if line_noqa(source.line_text(diagnostic.start.row), rule.code):
                    suppressed.add((diagnostic.start.row, rule.code))
                else:
                    diagnostics.append(diagnostic)
        if diagnostics and fails_on_import(context):
            return []  # none of its code runs
        return sorted(diagnostics, key=lambda d: d.sort_key)

    def _fix(self, result: LintResult, rules: Sequence[Rule], unsafe: bool) -> None:
        source, program = result.source, result.program
        for _ in range(_MAX_FIX_ROUNDS):
            candidates = [
                d
                for d in result.diagnostics
                if d.code in self.fixable
                and d.fixable(unsafe)
                # in a notebook: within a cell, off magics
                and (program is None or program.keeps(d.fix.edits))
            ]
            if not candidates:
                return
            text, applied = apply_fixes(source.text, candidates)
            if not applied:
                return
            if program is not None:
                try:
                    program = program.edited([edit for d in applied for edit in d.fix.edits])
                except NotebookError as error:
                    result.errors.append(f"fixes not applied to {result.path}: {error}")
                    return
                text = program.text
                result.program = program
            source = SourceText(text, source.encoding)
            result.source = source
            result.fixed.update(d.code for d in applied)
            # a fix can open rules (a seeding call it adds)
            rules = self._wanted(result.path, text.encode(source.encoding))
            result.diagnostics = self._diagnostics(
                result.path, source, rules, result.errors, result.reads, program
            )


def apply_fixes(text: str, diagnostics: Sequence[Diagnostic]) -> tuple[str, list[Diagnostic]]:
    """Apply every fix whose edits do not clash with an earlier one; keep the result parseable."""
    accepted: list[Diagnostic] = []
    edits: list[Edit] = []
    for diagnostic in sorted(diagnostics, key=lambda d: min(e.start for e in d.fix.edits)):
        new = diagnostic.fix.edits
        if any(edit.overlaps(other) for edit in new for other in edits):
            continue
        accepted.append(diagnostic)
        edits.extend(edit for edit in new if edit not in edits)
    fixed = apply_edits(text, edits)
    if _parses(fixed):
        return fixed, accepted
    # One of the fixes breaks the file: keep only those that leave it parseable on their own.
    kept = [d for d in accepted if _parses(apply_edits(text, list(d.fix.edits)))]
    if len(kept) < len(accepted) and kept:
        return apply_fixes(text, kept)
    return text, []


def _parses(text: str) -> bool:
    try:
        syntax_tree(text)
    except (cst.ParserSyntaxError, RecursionError):
        return False
    return True


def _indentation_expanded(text: str) -> str | None:
    """The text with each line's leading tabs expanded to spaces as CPython counts them (to the
    next multiple of 8), or None when no line starts with a tab among its indentation."""
    lines = text.splitlines(keepends=True)
    expanded = []
    for line in lines:
        body = line.lstrip(" \t")
        indentation = line[: len(line) - len(body)]
        expanded.append(indentation.expandtabs(8) + body if "\t" in indentation else line)
    joined = "".join(expanded)
    return joined if joined != text else None


def _python_accepts(text: str) -> bool:
    try:
        python_compiles(text)
    except NotParsed:
        return False
    return True


def _placed_back(diagnostic: Diagnostic, source: SourceText) -> Diagnostic:
    """A finding on the text with expanded indentation, at its place in the original text,
    without its fix (its edits are offsets into the other text)."""

    def place(location: Location) -> Location:
        line = source.line_text(location.row)
        indentation = len(line) - len(line.lstrip(" \t"))
        grown = len(line[:indentation].expandtabs(8)) - indentation
        if location.column > indentation + grown:
            return Location(location.row, location.column - grown)
        return Location(location.row, min(location.column, indentation + 1))

    start, end = place(diagnostic.start), place(diagnostic.end)
    return replace(
        diagnostic,
        start=start,
        end=end,
        fix=None,
        edit_locations=(),
        source_lines=tuple(source.line_text(row) for row in range(start.row, end.row + 1)),
    )


def _diagnostic(
    rule: Rule, path: Path, source: SourceText, start: int, end: int, finding
) -> Diagnostic:
    start_location, end_location = source.location(start), source.location(end)
    edit_locations = ()
    if finding.fix is not None:
        edit_locations = tuple(
            (source.location(e.start), source.location(e.end)) for e in finding.fix.edits
        )
    return Diagnostic(
        rule.code,
        rule.name,
        finding.message,
        path,
        start_location,
        end_location,
        finding.fix,
        finding.help,
        tuple(source.line_text(row) for row in range(start_location.row, end_location.row + 1)),
        edit_locations,
        finding.generators,
    )


def unreadable(path: Path, reason: str) -> Diagnostic:
    """The SL000 finding of a file that cannot be read or decoded."""
    return _invalid_syntax(path, SourceText(""), 1, 0, f"cannot read the file: {reason}")


def _syntax_error(path: Path, source: SourceText, error: cst.ParserSyntaxError) -> Diagnostic:
    """SL000 at the position CPython reports (libcst's native parser points past the error)."""
    try:
        compile(source.text, str(path), "exec", dont_inherit=True)
    except SyntaxError as python_error:
        if python_error.lineno:
            return _invalid_syntax(
                path,
                source,
                python_error.lineno,
                max((python_error.offset or 1) - 1, 0),
                f"SyntaxError: {python_error.msg}",
            )
    except (ValueError, RecursionError, MemoryError):
        pass
    else:
        # Python accepts what libcst's tokenizer rejects (tabs and spaces mixed in an indentation
        # CPython still reads as consistent): not a syntax error, but nothing in it is reported
        message = error.message.strip().splitlines()[0] if error.message.strip() else "rejected"
        return _invalid_syntax(
            path,
            source,
            error.raw_line,
            error.raw_column,
            f"Python accepts this file, but libcst, which seedlint needs to report on it, "
            f"rejects it ({message}), so nothing in it is reported",
        )
    message = error.message.strip().splitlines()[0] if error.message.strip() else "invalid syntax"
    return _invalid_syntax(
        path, source, error.raw_line, error.raw_column, f"SyntaxError: {message}"
    )


def _invalid_syntax(
    path: Path, source: SourceText, row: int, column: int, message: str
) -> Diagnostic:
    start = Location(row, column + 1)
    line = source.line_text(row)
    end = Location(row, min(column + 2, len(line) + 1))
    return Diagnostic(
        INVALID_SYNTAX.code,
        INVALID_SYNTAX.name,
        message,
        path,
        start,
        end,
        source_lines=(line,),
    )
