"""Tests of the output formats in seedlint.reporters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import JSON_KEYS, run_cli

import seedlint
from seedlint.diagnostics import Applicability, Diagnostic, Edit, Fix
from seedlint.pages import page_url
from seedlint.reporters import FORMATS, render
from seedlint.rules.base import Rule
from seedlint.source import Location

CWD = Path("/project").absolute()
ANSI = "\x1b["


class FakeSeed(Rule):
    code = "SL104"
    name = "random-before-seed"
    summary = "A random draw runs before the seeding call that should control it"
    fix_availability = "unsafe"


class FakeSyntax(Rule):
    code = "SL000"
    name = "invalid-syntax"
    summary = "The file cannot be parsed"


class FakeOptIn(Rule):
    code = "SL302"
    name = "cudnn-flag-typo"
    summary = "A misspelt cuDNN flag"
    default_enabled = False


RULES = {rule.code: rule for rule in (FakeSeed, FakeOptIn, FakeSyntax)}

SEED_FIX = Fix(
    "Move the seeding call above the first random draw",
    Applicability.SAFE,
    (Edit(10, 10, "torch.manual_seed(0)\n"), Edit(40, 61, "")),
)


def example() -> Diagnostic:
    """The finding of the documented `full` example, with a safe fix of two edits."""
    return Diagnostic(
        code="SL104",
        name="random-before-seed",
        message="`torch.randn` draws random numbers before `torch.manual_seed` seeds the generator",
        path=CWD / "train.py",
        start=Location(4, 5),
        end=Location(4, 19),
        fix=SEED_FIX,
        help="Move the seeding call above the first random draw",
        source_lines=("x = torch.randn(3)",),
        edit_locations=((Location(3, 1), Location(3, 1)), (Location(6, 1), Location(7, 1))),
    )


def multiline() -> Diagnostic:
    return Diagnostic(
        code="SL104",
        name="random-before-seed",
        message="draw",
        path=Path("pkg/model.py"),
        start=Location(9, 9),
        end=Location(11, 6),
        source_lines=("    x = torch.randn(", "        3,", "    )  # done"),
    )


def tabbed() -> Diagnostic:
    return Diagnostic(
        code="SL104",
        name="random-before-seed",
        message="draw",
        path=CWD / "tabs.py",
        start=Location(2, 7),
        end=Location(2, 10),
        source_lines=("\tif x\ty()",),
    )


def awkward() -> Diagnostic:
    """A message with every character that GitHub needs escaped, outside the working directory."""
    return Diagnostic(
        code="SL000",
        name="invalid-syntax",
        message="100% broken: a, b\nsecond line",
        path=Path("/elsewhere/odd,na:me.py"),
        start=Location(1, 1),
        end=Location(1, 2),
        source_lines=("(",),
    )


def unsafe() -> Diagnostic:
    fix = Fix("Seed first", Applicability.UNSAFE, (Edit(0, 0, "seed()\n"),))
    return Diagnostic(
        code="SL104",
        name="random-before-seed",
        message="draw",
        path=Path("a.py"),
        start=Location(1, 1),
        end=Location(1, 3),
        fix=fix,
        source_lines=("xy",),
        edit_locations=((Location(1, 1), Location(1, 1)),),
    )


def out(diagnostics, output_format, *, color=False, unsafe_fixes=False, cwd=CWD) -> str:
    return render(
        diagnostics, output_format, cwd=cwd, color=color, rules=RULES, unsafe_fixes=unsafe_fixes
    )


# full


def test_full_matches_documented_example_byte_for_byte():
    expected = (
        "SL104 [*] `torch.randn` draws random numbers before `torch.manual_seed` seeds the generator\n"
        " --> train.py:4:5\n"
        "  |\n"
        "4 | x = torch.randn(3)\n"
        "  |     ^^^^^^^^^^^^^^\n"
        "help: Move the seeding call above the first random draw\n"
    )
    assert out([example()], "full") == expected


def test_full_multiline_range_underlines_every_line():
    assert out([multiline()], "full") == (
        "SL104 draw\n"
        "  --> pkg/model.py:9:9\n"
        "   |\n"
        " 9 |     x = torch.randn(\n"
        "   |         ^^^^^^^^^^^^\n"
        "10 |         3,\n"
        "   |         ^^\n"
        "11 |     )  # done\n"
        "   |     ^\n"
    )


def test_full_tabs_keep_carets_aligned():
    text = out([tabbed()], "full")
    assert "2 | \tif x\ty()\n" in text
    assert "  | \t    \t^^^\n" in text


def test_full_blocks_are_separated_by_one_blank_line_and_help_is_optional():
    text = out([example(), multiline()], "full")
    assert "help: Move the seeding call above the first random draw\n\nSL104 draw\n" in text
    assert text.endswith("   |     ^\n")
    assert text.count("help:") == 1


def test_full_caret_at_least_one_even_for_empty_range():
    diagnostic = unsafe()
    diagnostic.end = diagnostic.start
    assert "  | ^\n" in out([diagnostic], "full")


def test_unsafe_fix_marker_depends_on_unsafe_fixes():
    assert " [*] " not in out([unsafe()], "full")
    assert out([unsafe()], "concise", unsafe_fixes=True) == "a.py:1:1: SL104 [*] draw\n"


def test_color_off_has_no_escape_codes_and_on_has_them():
    diagnostics = [example(), multiline(), awkward()]
    for output_format in ("full", "concise"):
        assert ANSI not in out(diagnostics, output_format, color=False)
        assert ANSI in out(diagnostics, output_format, color=True)


def test_colored_full_styles_each_part():
    text = out([example()], "full", color=True)
    assert "\x1b[31m\x1b[1mSL104\x1b[0m" in text
    assert "\x1b[36m[*]\x1b[0m" in text
    assert "\x1b[34m-->\x1b[0m" in text
    assert "\x1b[1mtrain.py\x1b[0m" in text
    assert "\x1b[31m^^^^^^^^^^^^^^\x1b[0m" in text
    assert "\x1b[1mhelp:\x1b[0m" in text


@pytest.mark.parametrize("output_format", ["full", "concise", "github", "json-lines"])
def test_text_formats_print_nothing_without_diagnostics(output_format):
    assert out([], output_format) == ""


# concise


def test_concise_one_line_per_finding_with_relative_paths():
    assert out([example(), multiline(), awkward()], "concise") == (
        "train.py:4:5: SL104 [*] `torch.randn` draws random numbers before `torch.manual_seed` seeds the generator\n"
        "pkg/model.py:9:9: SL104 draw\n"
        "/elsewhere/odd,na:me.py:1:1: SL000 100% broken: a, b\nsecond line\n"
    )


# json and json-lines


def test_json_items_have_exactly_ruffs_keys_and_values():
    items = json.loads(out([example(), multiline()], "json"))
    assert [set(item) for item in items] == [JSON_KEYS, JSON_KEYS]
    first = items[0]
    assert first["filename"] == str(CWD / "train.py")
    assert first["location"] == {"row": 4, "column": 5}
    assert first["end_location"] == {"row": 4, "column": 19}
    assert first["noqa_row"] == 4
    assert first["url"] == page_url("SL104")
    assert first["fix"] == {
        "applicability": "safe",
        "message": "Move the seeding call above the first random draw",
        "edits": [
            {
                "content": "torch.manual_seed(0)\n",
                "location": {"row": 3, "column": 1},
                "end_location": {"row": 3, "column": 1},
            },
            {
                "content": "",
                "location": {"row": 6, "column": 1},
                "end_location": {"row": 7, "column": 1},
            },
        ],
    }
    assert items[1]["fix"] is None
    assert items[1]["filename"] == str(CWD / "pkg" / "model.py")


def test_json_is_indented_and_empty_is_an_empty_list():
    assert out([], "json") == "[]\n"
    assert out([example()], "json").startswith('[\n  {\n    "code": "SL104"')


def test_json_lines_parse_one_by_one_and_match_json():
    text = out([example(), awkward(), unsafe()], "json-lines")
    assert text.endswith("\n")
    parsed = [json.loads(line) for line in text.splitlines()]
    assert parsed == json.loads(out([example(), awkward(), unsafe()], "json"))
    assert parsed[1]["message"] == "100% broken: a, b\nsecond line"
    assert parsed[2]["fix"]["applicability"] == "unsafe"


# github


def test_github_annotation():
    assert out([example()], "github") == (
        "::error title=seedlint (SL104),file=train.py,line=4,col=5,endLine=4,endColumn=19::"
        "train.py:4:5: SL104 `torch.randn` draws random numbers before `torch.manual_seed` seeds the generator\n"
    )


def test_github_escapes_message_and_properties():
    assert out([awkward()], "github") == (
        "::error title=seedlint (SL000),file=/elsewhere/odd%2Cna%3Ame.py,line=1,col=1,endLine=1,endColumn=2::"
        "/elsewhere/odd,na:me.py:1:1: SL000 100%25 broken: a, b%0Asecond line\n"
    )
    diagnostic = awkward()
    diagnostic.message = "a\r\nb"
    assert out([diagnostic], "github").endswith("SL000 a%0D%0Ab\n")


# sarif


def sarif(diagnostics):
    return json.loads(out(diagnostics, "sarif"))


def test_sarif_has_the_required_top_level_fields():
    log = sarif([example()])
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": CWD.as_uri() + "/"}}
    driver = run["tool"]["driver"]
    assert driver["name"] == "seedlint"
    assert driver["semanticVersion"] == seedlint.__version__
    assert driver["informationUri"] == "https://github.com/seedlint/seedlint"


def test_sarif_lists_every_rule_sorted_with_descriptors():
    rules = sarif([])["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["SL000", "SL104", "SL302"]
    seed = rules[1]
    assert seed["name"] == "random-before-seed"
    assert seed["shortDescription"] == {"text": FakeSeed.summary}
    assert seed["fullDescription"] == {"text": FakeSeed.summary}
    assert seed["help"]["text"]
    assert seed["helpUri"] == page_url("SL104")
    assert seed["defaultConfiguration"] == {"level": "error"}
    assert rules[2]["defaultConfiguration"] == {"level": "none"}


def test_sarif_results_point_at_the_rule_and_region():
    results = sarif([example(), multiline(), awkward()])["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["SL104", "SL104", "SL000"]
    assert [r["ruleIndex"] for r in results] == [1, 1, 0]
    first = results[0]
    assert first["level"] == "error"
    assert first["message"]["text"] == example().message
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "train.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 4, "startColumn": 5, "endLine": 4, "endColumn": 19}
    second = results[1]["locations"][0]["physicalLocation"]
    assert second["artifactLocation"]["uri"] == "pkg/model.py"
    assert second["region"] == {"startLine": 9, "startColumn": 9, "endLine": 11, "endColumn": 6}
    assert "fixes" not in results[1] and "fixes" not in results[2]


def test_sarif_fix_lists_every_edit():
    (fix,) = sarif([example()])["runs"][0]["results"][0]["fixes"]
    assert fix["description"] == {"text": SEED_FIX.message}
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "train.py", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 3, "startColumn": 1, "endLine": 3, "endColumn": 1},
            "insertedContent": {"text": "torch.manual_seed(0)\n"},
        },
        {
            "deletedRegion": {"startLine": 6, "startColumn": 1, "endLine": 7, "endColumn": 1},
            "insertedContent": {"text": ""},
        },
    ]


def test_sarif_file_outside_cwd_gets_an_absolute_uri():
    location = sarif([awkward()])["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].startswith("file:///")
    assert "uriBaseId" not in location["artifactLocation"]


# gitlab


def test_gitlab_gives_code_quality_issues_with_relative_paths_and_one_based_positions():
    (issue,) = json.loads(out([multiline()], "gitlab"))
    assert issue == {
        "check_name": "SL104",
        "description": "SL104: draw",
        "severity": "major",
        "fingerprint": issue["fingerprint"],
        "location": {
            "path": "pkg/model.py",
            "positions": {"begin": {"line": 9, "column": 9}, "end": {"line": 11, "column": 6}},
        },
    }
    assert re.fullmatch(r"[0-9a-f]{16}", issue["fingerprint"])
    assert json.loads(out([], "gitlab")) == []


def test_gitlab_paths_are_relative_to_the_gitlab_project(monkeypatch):
    monkeypatch.setenv("CI_PROJECT_DIR", str(CWD.parent))
    (issue,) = json.loads(out([example()], "gitlab"))
    assert issue["location"]["path"] == f"{CWD.name}/train.py"


def test_gitlab_fingerprints_survive_unrelated_edits_and_tell_twins_apart(tmp_path):
    code = "import torch\n\nkeep(torch.rand(3))\nkeep(torch.rand(3))\ntorch.manual_seed(0)\n"
    (tmp_path / "train.py").write_text(code)

    def fingerprints():
        result = run_cli("check", "--isolated", "--output-format", "gitlab", ".", cwd=tmp_path)
        return [issue["fingerprint"] for issue in json.loads(result.stdout)]

    before = fingerprints()
    assert len(before) == len(set(before)) == 2  # the same finding twice: two fingerprints
    (tmp_path / "train.py").write_text("import os\n# a comment\n" + code)
    assert fingerprints() == before  # the findings moved down two lines
    (tmp_path / "train.py").write_text(code.replace("(3))\nkeep(", "(3))\nx = ("))
    assert fingerprints()[0] == before[0]  # the first one's code is unchanged


# entry point


def test_formats_and_unknown_format():
    assert FORMATS == ("full", "concise", "json", "json-lines", "github", "gitlab", "sarif")
    with pytest.raises(ValueError, match="unknown output format"):
        out([], "xml")


@pytest.mark.parametrize("output_format", FORMATS)
def test_every_format_ends_with_a_newline(output_format):
    assert out([example(), awkward()], output_format).endswith("\n")
