"""pre-commit itself runs the hook from this repository: it fails on a bad file and passes a clean one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BAD = "import torch\n\ntorch.cuda.manual_seed_all(0)\nmodel = torch.nn.Linear(4, 4)\n"
CLEAN = "import torch\n\ntorch.manual_seed(0)\nmodel = torch.nn.Linear(4, 4)\n"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {
        "PRE_COMMIT_HOME": str(home),
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "HOME": str(home),
        "NO_COLOR": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        capture_output=True,
        env=env,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def hook_source(tmp_path_factory) -> Path:
    """A committed snapshot of this working tree: try-repo installs the hook from it."""
    source = tmp_path_factory.mktemp("hook-source")
    ignore = shutil.ignore_patterns(
        ".git", "__pycache__", "*.egg-info", ".pytest_cache", "build", "dist"
    )
    shutil.copytree(REPO, source, dirs_exist_ok=True, ignore=ignore)
    _git(source, "init", "-q")
    _git(source, "add", "-A")
    _git(
        source,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-qm",
        "snapshot",
    )
    return source


def test_manifest_validates(hook_source, tmp_path):
    result = _pre_commit(
        "validate-manifest",
        str(hook_source / ".pre-commit-hooks.yaml"),
        cwd=tmp_path,
        home=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_try_repo_fails_on_bad_file_and_passes_clean_one(hook_source, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    (project / "bad.py").write_text(BAD)
    (project / "clean.py").write_text(CLEAN)
    _git(project, "add", "-A")
    home = tmp_path / "home"

    failing = _pre_commit(
        "try-repo", str(hook_source), "seedlint", "--all-files", cwd=project, home=home
    )
    output = failing.stdout + failing.stderr
    assert failing.returncode == 1, output
    assert "bad.py:3:1" in output and "SL101" in output
    assert "clean.py" not in output

    (project / "bad.py").write_text(CLEAN)
    _git(project, "add", "-A")
    passing = _pre_commit(
        "try-repo", str(hook_source), "seedlint", "--all-files", cwd=project, home=home
    )
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
