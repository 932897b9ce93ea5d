"""Fix round-trip fuzzing: on generated training scripts (`programs.py`) and on arbitrary valid Python
(hypothesmith) spliced into them, with every rule selected and safe then unsafe fixes,

- linting never raises and no rule fails (`LintResult.errors` stays empty);
- each round of fixes changes only the ranges its accepted edits name, and the text outside them is kept;
- re-linting after a round shows no finding of a fixed rule where the fix applied, and removing a code from a
  `# noqa` (SL100) uncovers no finding of that code on its line;
- every fixed text compiles with CPython whenever the original did, and keeps a single newline style;
- `lint(fix=..)` gives the text of those rounds, and fixing its result again changes nothing and finds the same.

The "ci" profile (the default) is bounded and derandomized. The "long" profile runs 100,000 programs
(SEEDLINT_FUZZ_PROGRAMS changes the count), 70% generated scripts, 20% with hypothesmith's grammar, 10% with
its syntax trees, each property test printing how many it ran:

    SEEDLINT_FUZZ=long python -m pytest tests/robustness/test_fix_fuzz.py -p no:cacheprovider \
        --hypothesis-show-statistics -k round_trip
"""

from __future__ import annotations

import functools
import os
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from programs import grammar_scripts, node_scripts, training_scripts

from seedlint.analysis.context import AnalysisSettings
from seedlint.diagnostics import Diagnostic, Edit
from seedlint.linter import _MAX_FIX_ROUNDS, UNUSED_NOQA, Linter, apply_fixes
from seedlint.results import LintResult
from seedlint.rules import RULES
from seedlint.source import SourceText

_PROFILE = os.environ.get("SEEDLINT_FUZZ", "ci")
_LONG_PROGRAMS = int(os.environ.get("SEEDLINT_FUZZ_PROGRAMS", "100000"))
_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, suppress_health_check=_SLOW
)
settings.register_profile("long", database=None, deadline=None, suppress_health_check=_SLOW)
FUZZ = settings.get_profile(_PROFILE)
# Every rule, SL305 included (it judges torch < 2.10), every fix allowed: what `--select ALL --fix` runs.
LINTER = Linter(
    [RULES[code]() for code in RULES],
    AnalysisSettings(target_torch_version=(2, 4)),
    fixable=set(RULES),
)
PATH = Path("train.py")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def _examples(ci: int, long: float) -> settings:
    """The settings of a property test: `ci` examples, or a share `long` of the long profile's programs."""
    return settings(FUZZ, max_examples=ci if _PROFILE == "ci" else round(long * _LONG_PROGRAMS))


def _compiles(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(text, "<fuzz>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def _offset(source: SourceText, diagnostic: Diagnostic) -> tuple[int, int]:
    return (
        source.offset(diagnostic.start.row, diagnostic.start.column - 1),
        source.offset(diagnostic.end.row, diagnostic.end.column - 1),
    )


def _rebuilt(text: str, edits: list[Edit]) -> str:
    """The text with the edits applied, each to the original offsets (they must not overlap)."""
    pieces, position = [], 0
    for edit in sorted(edits, key=lambda edit: (edit.start, edit.end)):
        assert edit.start >= position, f"overlapping edits: {edits}"
        pieces += [text[position : edit.start], edit.content]
        position = edit.end
    return "".join(pieces) + text[position:]


def _moved(offset: int, edits: list[Edit], end: bool = False) -> int:
    """Where an offset of the text lands after the edits (inside a replaced range: that range's start or end)."""
    shift = 0
    for edit in sorted(edits, key=lambda edit: (edit.start, edit.end)):
        if edit.end < offset or edit.end == offset and not (end and edit.start == edit.end):
            shift += len(edit.content) - (edit.end - edit.start)
        elif edit.start < offset:
            return edit.start + shift + (len(edit.content) if end else 0)
    return offset + shift


def _reported_again(
    before: str, after: str, edits: list[Edit], accepted: list[Diagnostic], found: list[Diagnostic]
) -> list[tuple[Diagnostic, Diagnostic]]:
    """(fixed, found) pairs: a finding after the round that is a fixed one (its rule, its message) on its moved
    span. (A rule may find something else there: another fix of the round may have changed what it sees.)"""
    old, new = SourceText(before), SourceText(after)
    pairs = []
    for fixed in accepted:
        start, end = _offset(old, fixed)
        start, end = _moved(start, edits), _moved(end, edits, end=True)
        for diagnostic in found:
            found_start, found_end = _offset(new, diagnostic)
            if (
                (diagnostic.code, diagnostic.message) == (fixed.code, fixed.message)
                and found_start < end
                and start < found_end
            ):
                pairs.append((fixed, diagnostic))
    return pairs


def _revealed_by_noqa_fixes(
    text: str, encoding: str, accepted: list[Diagnostic]
) -> list[Diagnostic]:
    """Findings that the SL100 fixes of a round uncover on their own: of a code a fix removes from a `# noqa`
    as suppressing nothing (its message names them), on that comment's line."""
    removals = [d for d in accepted if d.code == UNUSED_NOQA]
    if not removals:
        return []
    edits = [edit for diagnostic in removals for edit in diagnostic.fix.edits]
    old, new = SourceText(text), SourceText(_rebuilt(text, edits))
    claims = {
        (new.location(_moved(_offset(old, d)[0], edits)).row, code)
        for d in removals
        for code in re.findall(r"SL[0-9]{3}", d.message)
    }
    return [
        d for d in _linted(new.text.encode(encoding)).diagnostics if (d.start.row, d.code) in claims
    ]


def _signature(diagnostics: list[Diagnostic]) -> list[tuple]:
    return [(d.code, d.start, d.end, d.message) for d in diagnostics]


def _lint(data: bytes, fix: str | None = None) -> LintResult:
    result = LINTER.lint(PATH, data, fix)
    assert not result.errors
    assert result.source is not None
    return result


@functools.lru_cache(maxsize=32)  # the safe and the unsafe rounds often meet the same texts
def _linted(data: bytes) -> LintResult:
    return _lint(data)


def _fix_rounds(
    text: str, encoding: str, unsafe: bool, compiles: bool
) -> tuple[str, list[Diagnostic], int]:
    """Fix round by round as `lint(fix=..)` does, checking each round: the final text, its findings, the rounds."""
    newlines = set(_NEWLINES.findall(text))
    diagnostics = _linted(text.encode(encoding)).diagnostics
    for rounds in range(_MAX_FIX_ROUNDS + 1):
        fixed, accepted = apply_fixes(text, [d for d in diagnostics if d.fixable(unsafe)])
        if not accepted:
            return text, diagnostics, rounds
        edits = list(
            dict.fromkeys(edit for diagnostic in accepted for edit in diagnostic.fix.edits)
        )
        assert fixed == _rebuilt(text, edits)
        found = _linted(fixed.encode(encoding)).diagnostics
        assert not _reported_again(text, fixed, edits, accepted, found)
        assert not _revealed_by_noqa_fixes(text, encoding, accepted)
        assert _compiles(fixed) or not compiles, fixed
        assert len(newlines) > 1 or set(_NEWLINES.findall(fixed)) <= newlines
        text, diagnostics = fixed, found
    pytest.fail(f"fixes still apply after {_MAX_FIX_ROUNDS} rounds:\n{text}")


def check_round_trip(data: bytes) -> None:
    """The properties of the module docstring, for one program's bytes."""
    original = _linted(data)
    text, encoding = original.source.text, original.source.encoding
    compiles = _compiles(text)
    for fix in ("safe", "unsafe"):
        fixed, diagnostics, rounds = _fix_rounds(text, encoding, fix == "unsafe", compiles)
        if rounds:  # (without fixes to apply, `lint(fix=..)` is `lint` and its first round)
            # The rounds ended on a fresh lint of `fixed` with nothing left to apply: what fixing `fixed` again
            # does. So `lint(fix=..)` is idempotent when it gives `fixed` and the same findings.
            result = _lint(data, fix)
            assert result.source.text == fixed
            assert _signature(result.diagnostics) == _signature(diagnostics)


@_examples(ci=60, long=0.7)
@given(training_scripts())
def test_fixes_round_trip_on_training_scripts(data):
    check_round_trip(data)


@_examples(ci=20, long=0.2)
@given(grammar_scripts())
def test_fixes_round_trip_with_hypothesmith_grammar_programs(data):
    check_round_trip(data)


@_examples(ci=8, long=0.1)
@given(node_scripts())
def test_fixes_round_trip_with_hypothesmith_node_programs(data):
    check_round_trip(data)


def _fixable_codes(data: bytes) -> set[str]:
    return {d.code for d in _lint(data).diagnostics if d.fixable(unsafe=True)}


def test_most_generated_scripts_have_findings_to_fix():
    """The fuzzing is not vacuous: most scripts give the fixes something to do."""
    fixable = []

    @settings(FUZZ, max_examples=100)
    @given(training_scripts())
    def collect(data):
        fixable.append(bool(_fixable_codes(data)))

    collect()
    assert sum(fixable) >= 0.6 * len(fixable)


@pytest.mark.parametrize(
    "code", [code for code in RULES if RULES[code].fix_availability in ("safe", "unsafe")]
)
def test_generated_scripts_reach_the_fixes_of_every_rule(code):
    find(
        training_scripts(),
        lambda data: code in _fixable_codes(data),
        settings=settings(FUZZ, max_examples=500, phases=[Phase.generate]),
    )


def test_a_used_noqa_stays_in_a_file_with_carriage_return_line_endings():
    """Found by fuzzing: with lone `\\r` line endings, SL100 put every comment on row 1, so it reported a
    `# noqa` that suppresses SL104 on row 2 as unused and its safe fix removed it."""
    data = b"import torch\rx = torch.rand(3)  # noqa: SL104\rtorch.manual_seed(0)\r"
    assert _lint(data).diagnostics == []
