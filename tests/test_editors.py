"""Real editors, headless, set up as docs/editors.md says: Neovim, Emacs (eglot) and Vim (ALE), Debian's
packages, attach `seedlint lsp` to a file with a seeding bug, show its diagnostic as their own, and fix
the buffer with the server's code action. Each driver in tests/editors/ writes what it saw."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
DRIVERS = Path(__file__).parent / "editors"
BUG = "import torch\n\ntorch.cuda.manual_seed_all(0)\nmodel = torch.nn.Linear(2, 2)\n"


def _command(editor: str) -> list[str] | None:
    """How to run an editor's driver headless (None: the editor or its LSP client is missing)."""
    if editor == "neovim" and shutil.which("nvim"):
        # a driver that fails leaves the editor open: the next command quits it with an error
        return [
            "nvim",
            "--headless",
            "--clean",
            "-c",
            f"luafile {DRIVERS / 'neovim.lua'}",
            "-c",
            "cquit 1",
        ]
    if editor == "emacs" and shutil.which("emacs"):
        eglot = subprocess.run(
            ["emacs", "--batch", "--eval", "(require 'eglot)"], capture_output=True
        )
        if eglot.returncode == 0:
            return ["emacs", "--batch", "-l", str(DRIVERS / "emacs.el")]
    if editor == "vim" and shutil.which("vim") and Path("/usr/share/vim-ale").is_dir():
        return [
            "vim",
            "-N",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-n",
            "-es",
            "-S",
            str(DRIVERS / "vim.vim"),
        ]
    return None


_PACKAGES = {"neovim": "neovim", "emacs": "emacs-nox elpa-eglot", "vim": "vim vim-ale"}


def _drive(editor: str, tmp_path: Path, text: str, wait_ms: int) -> dict[str, str]:
    command = _command(editor)
    if command is None:
        pytest.skip(f"{editor} is not installed (apt-get install {_PACKAGES[editor]})")
    (tmp_path / "train.py").write_text(text)
    result = tmp_path / "result.txt"
    environment = {
        **os.environ,
        # `seedlint` (as the setups in docs/editors.md run it) is this virtualenv's
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "DRIVERS": str(DRIVERS),
        "RESULT": str(result),
        "WAIT_MS": str(wait_ms),
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    subprocess.run(
        command,
        cwd=tmp_path,
        env=environment,
        timeout=120,
        check=True,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    return dict(line.split(": ", 1) for line in result.read_text().splitlines())


@pytest.mark.parametrize("editor", ["neovim", "emacs", "vim"])
def test_the_editor_shows_the_finding_and_applies_the_fix(tmp_path: Path, editor: str):
    seen = _drive(editor, tmp_path, BUG, wait_ms=30000)
    assert seen["before"] == "SL101"
    assert seen["applied"].startswith("SL101")
    assert seen["after"] == ""
    assert "torch.manual_seed(0)\\ntorch.cuda.manual_seed_all(0)" in seen["text"]


@pytest.mark.parametrize("editor", ["neovim", "emacs", "vim"])
def test_the_editor_shows_nothing_when_the_server_sends_nothing(tmp_path: Path, editor: str):
    # the same driver, the finding suppressed: what it reports comes from the server
    suppressed = BUG.replace("manual_seed_all(0)", "manual_seed_all(0)  # noqa: SL101")
    seen = _drive(editor, tmp_path, suppressed, wait_ms=3000)
    assert (seen["before"], seen["after"], "applied" in seen) == ("", "", False)


@pytest.mark.parametrize("setup", ["init.lua", "init.el", "vimrc"])
def test_the_docs_show_the_setup_the_editor_test_uses(setup: str):
    docs = (Path(__file__).parents[1] / "docs" / "editors.md").read_text()
    assert (DRIVERS / setup).read_text() in docs


def test_the_vs_code_extension_has_the_package_s_version_and_the_server_s_settings():
    import json

    import seedlint
    from seedlint.lsp.server import ClientSettings

    manifest = json.loads((Path(__file__).parents[1] / "editors/vscode/package.json").read_text())
    assert manifest["version"] == seedlint.__version__
    settings = manifest["contributes"]["configuration"]["properties"]
    for key in ("select", "extendSelect", "ignore", "configuration", "fixAll"):
        assert f"seedlint.{key}" in settings  # each one the server reads:
    parsed = ClientSettings.parse(
        {"select": ["SL1"], "extendSelect": ["SL2"], "ignore": ["SL3"], "configuration": "c.toml"}
    )
    assert (parsed.select, parsed.extend_select, parsed.ignore) == (["SL1"], ["SL2"], ["SL3"])
    assert parsed.configuration == Path("c.toml")
