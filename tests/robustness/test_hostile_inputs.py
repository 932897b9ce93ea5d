"""Hostile inputs: each gets a one-line reason (an SL000 finding or a warning), the other files' findings
stand, the exit code is the documented one, and no file changes without `--fix`."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from seedlint.runner import CheckOptions, Runner

SEEDED_LATE = "import torch\nx = torch.rand(3)\ntorch.manual_seed(0)\n"  # SL104 in every run
FIXED = "import torch\ntorch.manual_seed(0)\nx = torch.rand(3)\n"
PRELUDE = "import torch\ntorch.manual_seed(0)\n"  # makes the seeding rules want the file parsed


def _tree(root: Path, files: dict[str, str]) -> dict[Path, bytes]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return _snapshot(root)


def _snapshot(root: Path) -> dict[Path, bytes]:
    return {
        path: path.read_bytes()
        for path in sorted(root.rglob("*.py"))
        if path.is_file() and not path.is_symlink() and os.access(path, os.R_OK)
    }


def _concise(root: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return run_cli(
        "check", ".", "--no-cache", "--output-format", "concise", *args, cwd=root, **kwargs
    )


@pytest.mark.parametrize(
    "name, text, reason",
    [
        (
            "deep.py",
            PRELUDE + "x = " + "(" * 3000 + "1" + ")" * 3000 + "\n",
            "SyntaxError: too many nested parentheses",
        ),
        ("chain.py", PRELUDE + "x = (\n" + "-\n" * 100_000 + "1)\n", "too deeply nested to parse"),
        (
            "ifs.py",
            PRELUDE + "x = (\n" + "1 if a else\n" * 50_000 + "1)\n",
            "too deeply nested to parse",
        ),
        (
            "data.py",
            PRELUDE + "x = [" + ",".join(["1"] * 2_000_000) + "]\n",
            "over `max-file-size` (2,097,152)",
        ),
        (
            "line.py",
            PRELUDE + "x = [" + ",".join(["1"] * 60_000) + "]\n",
            "line 3 is 120,005 characters long",
        ),
    ],
)
def test_what_the_parser_cannot_take_is_one_finding_and_the_run_goes_on(
    tmp_path, name, text, reason
):
    before = _tree(tmp_path, {name: text, "train.py": SEEDED_LATE})
    limit = (
        1536 * 1024 * 1024
    )  # the whole run, in 1.5 GiB of address space (one-line data took 8.6 GB)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "seedlint",
            "check",
            ".",
            "--no-cache",
            "--output-format",
            "concise",
        ],
        cwd=tmp_path,
        check=False,
        capture_output=True,
        timeout=120,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    out = result.stdout.decode()
    assert result.returncode == 1, result.stderr.decode()[-2000:]
    finding = out.split(f"{name}:", 1)[1].splitlines()[0]
    assert " SL000 " in finding and reason in finding
    assert "train.py:2:5: SL104" in out
    assert _snapshot(tmp_path) == before


def test_the_limits_are_configurable(tmp_path):
    line = "x = [" + ",".join(["1"] * 60_000) + "]\n"
    _tree(tmp_path, {"line.py": PRELUDE + line})
    (tmp_path / "pyproject.toml").write_text("[tool.seedlint]\nmax-line-length = 200000\n")
    assert _concise(tmp_path).returncode == 0
    (tmp_path / "pyproject.toml").write_text("[tool.seedlint]\nmax-file-size = 1000\n")
    assert "over `max-file-size` (1,000)" in _concise(tmp_path).stdout.decode()
    (tmp_path / "pyproject.toml").write_text("[tool.seedlint]\nmax-file-size = -1\n")
    result = _concise(tmp_path)
    assert (
        result.returncode == 2
        and "`max-file-size` must be a positive number of bytes" in result.stderr.decode()
    )


def test_links_that_loop_or_dangle_odd_entries_and_linked_folders(tmp_path):
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    before = _tree(tree, {"train.py": SEEDED_LATE, "foo.py/inner.py": SEEDED_LATE})
    _tree(outside, {"elsewhere.py": SEEDED_LATE})
    os.symlink("loop_b.py", tree / "loop_a.py")
    os.symlink("loop_a.py", tree / "loop_b.py")
    os.symlink("/nonexistent/target.py", tree / "dangling.py")
    os.symlink(outside, tree / "linked")
    os.symlink("..", tree / "parent")
    os.mkfifo(tree / "pipe.py")
    result = _concise(tree)
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 1
    assert "train.py:2:5: SL104" in out and "foo.py/inner.py:2:5: SL104" in out
    assert "elsewhere.py" not in out and "Traceback" not in err
    assert (
        "warning: loop_a.py: skipped, a symbolic link that cannot be followed (Too many levels"
        in err
    )
    assert "warning: dangling.py: skipped, a symbolic link to nothing" in err
    assert "warning: pipe.py: skipped, not a regular file" in err
    assert _snapshot(tree) == before


def test_a_file_name_that_is_not_utf8(tmp_path):
    name = os.fsdecode(b"caf\xe9.py")
    _tree(tmp_path, {name: SEEDED_LATE})
    result = _concise(tmp_path)
    assert result.returncode == 1 and b"SL104" in result.stdout
    result = run_cli("check", ".", "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert [item["code"] for item in json.loads(result.stdout)] == ["SL104"]
    result = run_cli("check", ".", "--no-cache", "--output-format", "sarif", cwd=tmp_path)
    assert (
        json.loads(result.stdout)["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
            "artifactLocation"
        ]["uri"]
        == "caf%E9.py"
    )
    result = run_cli("check", ".", "--no-cache", "--diff", "--unsafe-fixes", cwd=tmp_path)
    assert result.returncode == 1 and b"+torch.manual_seed(0)" in result.stdout
    assert _concise(tmp_path, "--fix", "--unsafe-fixes").returncode == 0
    assert (tmp_path / name).read_text() == FIXED


def _deny(monkeypatch, tree: Path) -> None:
    """secret.py cannot be read and locked/ cannot be listed: by their modes, or (root reads anything) by
    the calls that read them failing as they do for another user."""
    os.chmod(tree / "secret.py", 0)
    os.chmod(tree / "locked", 0)
    if os.geteuid() != 0:
        return
    from seedlint import discovery, runner
    from seedlint.analysis import modules

    denied = PermissionError(13, "Permission denied")
    scandir, read_bytes, is_file = os.scandir, Path.read_bytes, Path.is_file
    # what is inside cannot even be looked up (`/proc/1/fdinfo/.gitignore`)
    monkeypatch.setattr(
        discovery.Path,
        "is_file",
        lambda path: (
            (_ for _ in ()).throw(denied) if path.parent.name == "locked" else is_file(path)
        ),
    )
    monkeypatch.setattr(
        modules,
        "open",
        lambda path, *args: (
            (_ for _ in ()).throw(denied) if Path(path).name == "secret.py" else open(path, *args)
        ),
        raising=False,
    )
    monkeypatch.setattr(
        discovery.os,
        "scandir",
        lambda path: (
            (_ for _ in ()).throw(denied) if Path(path).name == "locked" else scandir(path)
        ),
    )
    monkeypatch.setattr(
        runner.Path,
        "read_bytes",
        lambda path: (
            (_ for _ in ()).throw(denied) if path.name == "secret.py" else read_bytes(path)
        ),
    )


def test_unreadable_files_and_folders(tmp_path, monkeypatch):
    _tree(
        tmp_path,
        {"train.py": SEEDED_LATE, "secret.py": SEEDED_LATE, "locked/inside.py": SEEDED_LATE},
    )
    monkeypatch.chdir(tmp_path)
    _deny(monkeypatch, tmp_path)
    try:
        report = Runner(CheckOptions(paths=[Path(".")], cache=False, jobs=1)).run()
    finally:
        os.chmod(tmp_path / "locked", 0o755)
    found = {(d.path.name, d.code): d.message for d in report.diagnostics}
    assert found[("train.py", "SL104")]
    assert found[("secret.py", "SL000")] == "cannot read the file: Permission denied"
    assert ("inside.py", "SL104") not in found
    assert report.warnings == ["locked: cannot list the directory (Permission denied)"]


def test_a_file_that_vanishes_between_listing_and_reading(tmp_path, monkeypatch):
    _tree(tmp_path, {"train.py": SEEDED_LATE, "gone.py": SEEDED_LATE})
    monkeypatch.chdir(tmp_path)
    from seedlint import runner

    listed = runner.collect_files

    def listing_then_deleting(*args, **kwargs):
        files = list(listed(*args, **kwargs))
        (tmp_path / "gone.py").unlink()
        return iter(files)

    monkeypatch.setattr(runner, "collect_files", listing_then_deleting)
    report = Runner(CheckOptions(paths=[Path(".")], cache=False, jobs=1)).run()
    found = {(d.path.name, d.code): d.message for d in report.diagnostics}
    assert found[("train.py", "SL104")]
    assert found[("gone.py", "SL000")] == "cannot read the file: No such file or directory"


def test_fix_leaves_read_only_files_and_fixes_the_others(tmp_path):
    _tree(tmp_path, {"locked.py": SEEDED_LATE, "open.py": SEEDED_LATE})
    os.chmod(tmp_path / "locked.py", stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    result = _concise(tmp_path, "--fix", "--unsafe-fixes")
    assert result.returncode == 1
    assert (
        "warning: locked.py: not fixed, cannot write it (the file is read-only)"
        in result.stderr.decode()
    )
    assert "locked.py:2:5: SL104" in result.stdout.decode()
    assert (tmp_path / "locked.py").read_text() == SEEDED_LATE
    assert (tmp_path / "open.py").read_text() == FIXED


def test_fix_does_not_overwrite_a_file_changed_after_it_was_read(tmp_path, monkeypatch):
    _tree(tmp_path, {"train.py": SEEDED_LATE})
    saved_meanwhile = "import torch\ny = torch.randn(2)\ntorch.manual_seed(1)\n"
    monkeypatch.chdir(tmp_path)
    analyse = Runner.analyse
    calls = []

    def analyse_while_an_editor_saves(self, path, data):
        result = analyse(self, path, data)
        if not calls:
            (tmp_path / "train.py").write_text(saved_meanwhile)
        calls.append(data)
        return result

    monkeypatch.setattr(Runner, "analyse", analyse_while_an_editor_saves)
    options = CheckOptions(paths=[Path(".")], cache=False, jobs=1, fix=True, unsafe_fixes=True)
    Runner(options).run()
    assert (
        calls[1] == saved_meanwhile.encode()
    )  # the new bytes were read and fixed, not the old fix written
    assert (
        tmp_path / "train.py"
    ).read_text() == "import torch\ntorch.manual_seed(1)\ny = torch.randn(2)\n"


def test_a_folder_with_nothing_to_lint_says_so(tmp_path):
    _tree(tmp_path, {"build/x/train.py": SEEDED_LATE})
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n")
    result = run_cli("check", "build/x", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0
    assert (
        "warning: build/x: no Python files found (all excluded or git-ignored, or none there)"
        in result.stderr.decode()
    )
