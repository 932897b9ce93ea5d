"""The README stays true: its rule table matches the registry, its commands match CI, its example output is real."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli

from seedlint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_rule_table_matches_the_registry():
    rows = re.findall(
        r"^\| \[(SL\d{3})\]\(rules/\1\.md\) \| ([a-z-]+) \| (on|off) \| ([a-z-]+) \| (.+) \|$",
        README,
        re.MULTILINE,
    )
    assert [(code, name, default, fix, summary) for code, name, default, fix, summary in rows] == [
        (
            code,
            rule.name,
            "on" if rule.default_enabled else "off",
            rule.fix_availability,
            rule.summary,
        )
        for code, rule in RULES.items()
    ]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    command = re.search(
        r"^python -m pip install torch==2\.13\.0 && python -m pip install \"\.\[test\]\" && (.+)$",
        README,
        re.MULTILINE,
    )
    assert command is not None
    assert "python -m pip install --quiet torch==2.13.0" in ci
    assert 'python -m pip install --quiet ".[test]"' in ci
    assert ci.rstrip().endswith(command.group(1))


def test_example_output_is_what_the_example_gives():
    result = run_cli("check", "--isolated", "tests/examples/train.py", cwd=ROOT)
    out = result.stdout.decode()
    shown = README.split("$ seedlint check tests/examples/train.py\n", 1)[1].split("```", 1)[0]
    head = shown.split("...\n")[0]
    tail = shown.split("...\n")[1]
    assert out.startswith(head)
    assert out.endswith(tail)
    assert result.returncode == 1
