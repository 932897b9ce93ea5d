"""Every registered rule has a page whose example it flags (alone) and whose fixed version is clean."""

from __future__ import annotations

import pytest
from conftest import lint

from seedlint.analysis.context import AnalysisSettings
from seedlint.pages import page_examples, page_text
from seedlint.rules import RULES
from seedlint.selection import default_codes

SECTIONS = (
    "## What it flags",
    "## The chain it needs",
    "## Why it matters",
    "## Example",
    "## Fixed version",
    "## Fix safety",
    "## Confirming it at run time",
)
# Pages whose example needs particular settings to be flagged.
PAGE_SETTINGS = {"SL305": AnalysisSettings(target_torch_version=(2, 4))}


@pytest.mark.parametrize("code", sorted(RULES))
def test_page_has_every_section(code):
    text = page_text(code)
    assert text is not None, f"rules/{code}.md is missing"
    assert text.startswith(f"# {code} {RULES[code].name}\n")
    for heading in SECTIONS:
        assert heading in text, f"{code}: missing {heading!r}"


@pytest.mark.parametrize("code", sorted(RULES))
def test_example_flagged_by_exactly_this_rule_and_fixed_version_clean(code):
    example, fixed = page_examples(code)
    rules = default_codes() | {code}
    settings = PAGE_SETTINGS.get(code)
    found = {d.code for d in lint(example, rules, path="example.py", settings=settings).diagnostics}
    assert found == {code}
    assert lint(fixed, rules, path="example.py", settings=settings).diagnostics == []
