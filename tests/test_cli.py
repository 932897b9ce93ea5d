"""End-to-end: the `seedlint` command line as a subprocess, on real files."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import libcst
import pytest
from click.testing import CliRunner
from conftest import JSON_KEYS, run_cli

from seedlint.cli import main
from seedlint.config import installed_torch_version
from seedlint.pages import page_examples
from seedlint.rules import RULES

FIXABLE = sorted(
    code for code, rule in RULES.items() if rule.fix_availability in ("safe", "unsafe")
)

BAD = """\
import numpy as np
import torch

x = torch.randn(3)  # drawn before seeding
torch.manual_seed(0)
np.random.shuffle([1, 2])
"""


def _examples(directory: Path, which: int) -> dict[str, Path]:
    """Write every rule page's example (which=0) or fixed version (which=1) as `slxxx.py`."""
    paths = {}
    for code in sorted(RULES):
        path = directory / f"{code.lower()}.py"
        path.write_text(page_examples(code)[which], encoding="utf-8")
        paths[code] = path
    return paths


def test_every_rule_example_is_reported_in_full_format_with_its_position(tmp_path):
    _examples(tmp_path, 0)
    result = run_cli(
        "check", "--isolated", "--select", "ALL", "--target-torch-version", "2.4", ".", cwd=tmp_path
    )
    out = result.stdout.decode()
    assert result.returncode == 1, result.stderr
    for code in RULES:
        assert re.search(rf"^{code} .+\n +--> {code.lower()}\.py:\d+:\d+$", out, re.MULTILINE), code
    assert re.search(r"^Found \d+ errors?\.$", out, re.MULTILINE)


def test_fixed_versions_pass(tmp_path):
    _examples(tmp_path, 1)
    result = run_cli("check", "--isolated", "--select", "ALL", ".", cwd=tmp_path)
    assert result.stdout.decode() == "All checks passed!\n"
    assert result.returncode == 0


def test_concise_positions_match_json(tmp_path):
    _examples(tmp_path, 0)
    concise = run_cli(
        "check", "--isolated", "--output-format", "concise", "-q", ".", cwd=tmp_path
    ).stdout.decode()
    items = json.loads(
        run_cli("check", "--isolated", "--output-format", "json", ".", cwd=tmp_path).stdout
    )
    expected = [
        (Path(i["filename"]).name, i["location"]["row"], i["location"]["column"], i["code"])
        for i in items
    ]
    found = [
        (name, int(row), int(column), code)
        for name, row, column, code in re.findall(
            r"^(\S+):(\d+):(\d+): (SL\d+) ", concise, re.MULTILINE
        )
    ]
    assert found == expected and len(found) == len(concise.splitlines())


def test_json_items_carry_exactly_ruffs_keys(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    items = json.loads(
        run_cli("check", "--isolated", "--output-format", "json", "bad.py", cwd=tmp_path).stdout
    )
    assert [item["code"] for item in items] == ["SL104", "SL105"]
    for item in items:
        assert set(item) == JSON_KEYS
        assert Path(item["filename"]).is_absolute()
    sl104, sl105 = items
    assert (sl104["location"], sl104["end_location"]) == (
        {"row": 4, "column": 5},
        {"row": 4, "column": 19},
    )
    assert sl104["fix"]["applicability"] == "unsafe"
    assert sl105["fix"]["applicability"] == "safe"
    assert sl105["fix"]["edits"] == [
        {
            "content": "np.random.seed(0)\n",
            "location": {"row": 6, "column": 1},
            "end_location": {"row": 6, "column": 1},
        }
    ]
    assert sl105["noqa_row"] == 6 and sl105["url"].endswith("SL105.md")


def test_json_lines_and_statistics_json(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    lines = run_cli(
        "check", "--isolated", "--output-format", "json-lines", "bad.py", cwd=tmp_path
    ).stdout.decode()
    assert [json.loads(line)["code"] for line in lines.splitlines()] == ["SL104", "SL105"]
    stats = json.loads(
        run_cli(
            "check", "--isolated", "--statistics", "--output-format", "json", "bad.py", cwd=tmp_path
        ).stdout
    )
    assert stats == [
        {"code": "SL104", "name": "random-before-seed", "count": 1, "fixable": False},
        {"code": "SL105", "name": "library-unseeded", "count": 1, "fixable": True},
    ]


@pytest.mark.parametrize(
    "output_format", ["full", "concise", "json", "json-lines", "github", "gitlab", "sarif"]
)
def test_statistics_work_with_every_output_format(tmp_path, output_format):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli(
        "check",
        "--isolated",
        "--statistics",
        "--output-format",
        output_format,
        "bad.py",
        cwd=tmp_path,
    )
    assert result.returncode == 1, result.stderr
    out = result.stdout.decode()
    if output_format in ("full", "concise"):
        assert out == "1\tSL104\t[ ] random-before-seed\n1\tSL105\t[*] library-unseeded\n"
    elif output_format == "json-lines":
        assert [json.loads(line)["count"] for line in out.splitlines()] == [1, 1]
    elif output_format == "github":
        assert out.splitlines() == [
            "::notice title=seedlint statistics::1 × SL104 random-before-seed",
            "::notice title=seedlint statistics::1 × SL105 library-unseeded (fixable with --fix)",
        ]
    elif output_format == "sarif":
        run = json.loads(out)["runs"][0]
        assert [r["ruleId"] for r in run["results"]] == ["SL104", "SL105"]
        assert [row["code"] for row in run["properties"]["statistics"]] == ["SL104", "SL105"]
    elif output_format == "gitlab":  # the report itself: the artifact stays valid
        assert [issue["check_name"] for issue in json.loads(out)] == ["SL104", "SL105"]
    else:
        assert [row["code"] for row in json.loads(out)] == ["SL104", "SL105"]


def test_sarif_has_the_required_fields(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    log = json.loads(
        run_cli("check", "--isolated", "--output-format", "sarif", "bad.py", cwd=tmp_path).stdout
    )
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "seedlint"
    assert {rule["id"] for rule in run["tool"]["driver"]["rules"]} == set(RULES)
    assert run["columnKind"] == "unicodeCodePoints"
    for result in run["results"]:
        assert result["ruleId"] in RULES and result["message"]["text"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == "bad.py"
        assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(location["region"])


def test_github_format(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    out = run_cli(
        "check", "--isolated", "--output-format", "github", "bad.py", cwd=tmp_path
    ).stdout.decode()
    assert out.splitlines()[0].startswith(
        "::error title=seedlint (SL104),file=bad.py,line=4,col=5,endLine=4,endColumn=19::"
    )


def test_fix_then_check_is_clean_idempotent_and_keeps_comments(tmp_path):
    paths = _examples(tmp_path, 0)
    first = run_cli(
        "check",
        "--isolated",
        "--extend-select",
        "SL103",
        "--fix",
        "--unsafe-fixes",
        ".",
        cwd=tmp_path,
    )
    assert first.returncode in (0, 1), first.stderr
    after = {code: path.read_text() for code, path in paths.items()}
    for code, text in after.items():
        if code != "SL000":  # its example is a syntax error by definition
            libcst.parse_module(text)
    remaining = json.loads(
        run_cli(
            "check",
            "--isolated",
            "--extend-select",
            "SL103",
            "--unsafe-fixes",
            "--output-format",
            "json",
            ".",
            cwd=tmp_path,
        ).stdout
    )
    assert [item for item in remaining if item["fix"] and item["fix"]["edits"]] == []
    second = run_cli(
        "check",
        "--isolated",
        "--extend-select",
        "SL103",
        "--fix",
        "--unsafe-fixes",
        ".",
        cwd=tmp_path,
    )
    assert {code: path.read_text() for code, path in paths.items()} == after
    assert " fixed, " not in second.stdout.decode()


def test_fix_keeps_comments_crlf_and_encoding(tmp_path):
    source = "# -*- coding: latin-1 -*-\r\nimport torch\r\n\r\n# caf\xe9: seed the GPUs\r\ntorch.cuda.manual_seed_all(7)  # keep me\r\n"
    path = tmp_path / "train.py"
    path.write_bytes(source.encode("latin-1"))
    result = run_cli("check", "--isolated", "--fix", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert path.read_bytes() == source.replace(
        "torch.cuda.manual_seed_all(7)", "torch.manual_seed(7)\r\ntorch.cuda.manual_seed_all(7)"
    ).encode("latin-1")
    assert "Found 1 error (1 fixed, 0 remaining)." in result.stdout.decode()


def test_diff_writes_nothing(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(BAD)
    result = run_cli("check", "--isolated", "--diff", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    assert path.read_text() == BAD
    assert "+np.random.seed(0)\n" in result.stdout.decode()
    clean = run_cli("check", "--isolated", "--diff", "bad.py", "--select", "SL104", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, b"")


def test_show_fixes_and_exit_non_zero_on_fix(tmp_path):
    (tmp_path / "bad.py").write_text("import torch\ntorch.cuda.manual_seed_all(0)\n")
    result = run_cli(
        "check",
        "--isolated",
        "--fix",
        "--show-fixes",
        "--exit-non-zero-on-fix",
        "bad.py",
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert (
        "Fixed 1 error:\n- bad.py:\n    1 × SL101 (cpu-generator-unseeded)"
        in result.stdout.decode()
    )


def test_stdin_with_fix_prints_fixed_source(tmp_path):
    result = run_cli(
        "check",
        "--isolated",
        "--fix",
        "--stdin-filename",
        "train.py",
        "-",
        input=b"import torch\ntorch.cuda.manual_seed_all(1)\n",
        cwd=tmp_path,
    )
    assert (
        result.stdout.decode()
        == "import torch\ntorch.manual_seed(1)\ntorch.cuda.manual_seed_all(1)\n"
    )
    assert result.returncode == 0


def test_stdin_reports_under_the_given_name(tmp_path):
    result = run_cli(
        "check",
        "--isolated",
        "--output-format",
        "concise",
        "--stdin-filename",
        "src/train.py",
        "-",
        input=BAD.encode(),
        cwd=tmp_path,
    )
    assert result.stdout.decode().startswith("src/train.py:4:5: SL104")


def test_exit_zero_quiet_and_output_file(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("check", "--isolated", "-e", "-q", "-o", "report.txt", "bad.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, b"")
    report = (tmp_path / "report.txt").read_text()
    assert "SL104" in report and "Found" not in report


@pytest.mark.parametrize(
    "args, message",
    [
        (["--select", "SL999"], "unknown rule selector `SL999`"),
        (["nope.py"], "nope.py: No such file or directory"),
        (["--target-torch-version", "new"], "--target-torch-version"),
    ],
)
def test_usage_errors_are_one_line_exit_2(tmp_path, args, message):
    (tmp_path / "ok.py").write_text("x = 1\n")
    result = run_cli("check", "--isolated", *args, cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "config, message",
    [
        ("[tool.seedlint]\nselectt = ['SL1']\n", "unknown key `selectt`"),
        ("[tool.seedlint]\nselect = 'SL1'\n", "`select` must be a list"),
        ("[tool.seedlint]\nignore = ['XX1']\n", "unknown rule selector `XX1`"),
        ("[tool.seedlint]\nseed-functions = {'a.b' = ['gpu']}\n", "`seed-functions` must be"),
        ("[tool.seedlint\n", "invalid TOML"),
    ],
)
def test_bad_config_is_a_clear_error(tmp_path, config, message):
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "train.py").write_text(BAD)
    result = run_cli("check", "train.py", cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 2
    assert "pyproject.toml" in err and message in err and "Traceback" not in err


def test_closest_config_wins_and_per_file_ignores(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.seedlint]\nignore = ['SL104']\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "seedlint.toml").write_text(
        "per-file-ignores = {'legacy_*.py' = ['SL105']}\n"
    )
    for name in ("top.py", "sub/new.py", "sub/legacy_train.py"):
        (tmp_path / name).write_text(BAD)
    items = json.loads(run_cli("check", "--output-format", "json", ".", cwd=tmp_path).stdout)
    found = sorted((Path(i["filename"]).relative_to(tmp_path).as_posix(), i["code"]) for i in items)
    assert found == [
        ("sub/legacy_train.py", "SL104"),
        ("sub/new.py", "SL104"),
        ("sub/new.py", "SL105"),
        ("top.py", "SL105"),
    ]


def test_seed_functions_config_counts_as_seeding(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.seedlint]\nseed-functions = {'myproj.utils.fix_seeds' = ['torch', 'numpy', 'random']}\n"
    )
    (tmp_path / "train.py").write_text(
        textwrap.dedent("""\
        import numpy as np
        from myproj.utils import fix_seeds

        fix_seeds(0)
        order = np.random.permutation(10)
        """)
    )
    assert run_cli("check", "train.py", cwd=tmp_path).returncode == 0
    assert (
        run_cli("check", "--isolated", "train.py", cwd=tmp_path).returncode == 0
    )  # no seeding known: no flow


def test_excludes_gitignore_and_force_exclude(tmp_path):
    (tmp_path / ".gitignore").write_text("generated/\n")
    (tmp_path / "pyproject.toml").write_text("[tool.seedlint]\nextend-exclude = ['scratch.py']\n")
    names = ("generated/a.py", "build/b.py", "scratch.py", "train.py", "{{cookiecutter.name}}/c.py")
    for name in names:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(BAD)
    items = json.loads(run_cli("check", "--output-format", "json", ".", cwd=tmp_path).stdout)
    assert {Path(i["filename"]).name for i in items} == {"train.py"}
    explicit = run_cli("check", "--output-format", "json", "scratch.py", cwd=tmp_path)
    assert json.loads(explicit.stdout)
    forced = run_cli("check", "--force-exclude", "scratch.py", cwd=tmp_path)
    assert (forced.returncode, forced.stdout.decode()) == (0, "All checks passed!\n")


def test_syntax_error_is_a_finding_and_other_files_are_linted(tmp_path):
    (tmp_path / "broken.py").write_text("import torch\ntorch.manual_seed(0\n")
    (tmp_path / "bad.py").write_text(BAD)
    result = run_cli("check", "--isolated", "--output-format", "concise", ".", cwd=tmp_path)
    out = result.stdout.decode()
    assert result.returncode == 1
    assert re.search(r"^broken\.py:\d+:\d+: SL000 SyntaxError", out, re.MULTILINE)
    assert "bad.py:4:5: SL104" in out


# Tabs and spaces mixed in an indentation CPython reads as consistent and libcst's tokenizer rejects
# (a public SimCLR re-implementation's `train.py`, reduced).
MIXED_INDENTATION = (
    "import torch\n\nnoise = torch.rand(3)\ntorch.manual_seed(0)\nkeep(noise)\n\n\n"
    "def dataloader(args):\n"
    "        transform = T.Compose(\n\t    [T.ToTensor()])\n"
    "        trainset = D(root='./data', train=True,\n\t\t\t\t\t        transform=transform)\n"
    "        loader = L(trainset, batch_size=args.batch_size,\n\t\t\t\t\t        shuffle=True)\n"
    "        testset = D(root='./data', train=False,\n\t\t      \t\t\t    transform=transform)\n"
    "        test_loader = L(testset, batch_size=args.batch_size,\n\t\t\t\t\t     shuffle=False)\n"
    "def optimizer(net, args):\n"
    "    if args.optimizer.lower() == 'sgd':\n"
    "\t       return optim.SGD(net.parameters(), lr=args.lr)\n"
)


TABBED = (
    "import torch\n\n\ndef draw(model):\n    if model:\n"
    "\t       noise = torch.rand(3)\n\t       torch.manual_seed(0)\n\t       return model(noise)\n"
)


def test_a_file_python_accepts_and_libcst_rejects_is_read_with_its_indentation_in_spaces(
    tmp_path,
):
    for name, text in (("mixed.py", MIXED_INDENTATION), ("tabbed.py", TABBED)):
        compile(text, name, "exec")  # valid Python, which libcst's tokenizer rejects
        (tmp_path / name).write_text(text)
    args = ("check", "--isolated", "--output-format", "concise", ".")
    out = run_cli(*args, cwd=tmp_path).stdout.decode()
    # placed in the file as it is (the tab counts one column), and no syntax error
    assert "mixed.py:3:9: SL104" in out and "tabbed.py:6:17: SL104" in out, out
    assert "SL000" not in out and "[*]" not in out
    # no fix is offered: the file is left as it is
    run_cli("check", "--isolated", "--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert (tmp_path / "tabbed.py").read_text() == TABBED


def test_undecodable_file_is_a_finding(tmp_path):
    (tmp_path / "bad.py").write_bytes(b"import torch\ntorch.manual_seed(0)  # \xff\xfe\n")
    result = run_cli("check", "--isolated", "--output-format", "concise", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "bad.py:1:1: SL000 cannot read the file" in result.stdout.decode()
    assert "Traceback" not in result.stderr.decode()


def test_color_follows_the_flag_and_no_color(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    colored = run_cli("check", "--isolated", "--color", "always", "bad.py", cwd=tmp_path).stdout
    assert b"\x1b[" in colored
    auto = run_cli("check", "--isolated", "bad.py", cwd=tmp_path, env={"NO_COLOR": "1"}).stdout
    assert b"\x1b[" not in auto


def test_rule_command_prints_pages(tmp_path):
    page = run_cli("rule", "SL104", cwd=tmp_path)
    assert page.returncode == 0 and page.stdout.decode().startswith("# SL104 random-before-seed")
    listing = json.loads(run_cli("rule", "--all", "--output-format", "json", cwd=tmp_path).stdout)
    assert [entry["code"] for entry in listing] == sorted(RULES)
    assert {entry["name"] for entry in listing} == {rule.name for rule in RULES.values()}
    unknown = run_cli("rule", "SL999", cwd=tmp_path)
    assert unknown.returncode == 2 and b"unknown rule" in unknown.stderr


def test_noqa_suppresses(tmp_path):
    (tmp_path / "bad.py").write_text(
        BAD.replace("# drawn before seeding", "# noqa: SL104").replace(
            "np.random.shuffle([1, 2])", "np.random.shuffle([1, 2])  # NOQA"
        )
    )
    assert run_cli("check", "--isolated", "bad.py", cwd=tmp_path).returncode == 0


SL305_SOURCE = "import torch\ntorch.use_deterministic_algorithms(True)\nx = torch.zeros(2).cuda()\n"


@pytest.mark.parametrize(
    "config, flags, flagged",
    [
        ("", [], False),  # the installed torch (2.13, read from its metadata) is newer than 2.9
        ('[tool.seedlint]\ntarget-torch-version = "2.4"\n', [], True),
        (
            '[tool.seedlint]\ntarget-torch-version = "2.4"\n',
            ["--target-torch-version", "2.12"],
            False,
        ),
        ("", ["--target-torch-version", "2.9"], True),
    ],
    ids=["installed-default", "config", "flag-beats-config", "flag"],
)
def test_target_torch_version_defaults_to_the_installed_torch(tmp_path, config, flags, flagged):
    assert installed_torch_version() is not None and installed_torch_version() >= (2, 10)
    (tmp_path / "train.py").write_text(SL305_SOURCE)
    if config:
        (tmp_path / "pyproject.toml").write_text(config)
    result = run_cli(
        "check", "--select", "SL305", "--output-format", "concise", *flags, "train.py", cwd=tmp_path
    )
    assert ("SL305" in result.stdout.decode()) is flagged, result.stderr


def test_a_failing_rule_is_reported_on_stderr_and_the_others_still_run(tmp_path, monkeypatch):
    def broken(self, context):
        raise KeyError("boom")

    monkeypatch.setattr(RULES["SL301"], "check", broken)
    (tmp_path / "bad.py").write_text(BAD + "torch.backends.cudnn.benchmark = True\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["check", "--isolated", "--output-format", "concise", "bad.py"]
    )
    assert result.exit_code == 2
    assert "error: SL301 failed on bad.py: KeyError: 'boom'" in result.stderr
    assert "SL104" in result.stdout and "SL105" in result.stdout
    assert "Traceback" not in result.stderr + result.stdout


_IMPORTED = """\
import sys
from seedlint.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
rules = any(name.startswith("seedlint.rules.sl") for name in sys.modules)
print(" ".join(sorted(name for name in ("libcst", "libcst.matchers") if name in sys.modules) + ["rules"] * rules))
"""


@pytest.mark.parametrize(
    "arguments, imported",
    [
        (["--version"], ""),
        (
            ["check", "--isolated", "--no-cache", "--exclude", "*.py", "."],
            "",
        ),  # every file filtered out
        # libcst's matchers (about 0.3 s to import) are not used: every run that analyses a file would pay for them.
        (
            ["check", "--isolated", "--no-cache", "--select", "ALL", "--jobs", "1", "."],
            "libcst rules",
        ),
    ],
    ids=["version", "all-filtered-out", "every-rule"],
)
def test_what_a_run_imports(tmp_path, arguments, imported):
    _examples(tmp_path, 0)
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", _IMPORTED, *arguments], cwd=tmp_path, capture_output=True, check=True
    )
    assert result.stdout.decode().splitlines()[-1] == imported
