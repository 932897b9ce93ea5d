"""seedlint's VS Code extension in VS Code itself: code-server (VS Code for the browser) with the
built `.vsix` installed, driven in headless Chromium as a person would use it.

Needs `code-server` (on PATH, or SEEDLINT_CODE_SERVER), Debian's `chromium`, Python's `playwright`
and the packaged extension (`editors/vscode/seedlint.vsix`, `npm run package`); `.ci/run` installs
them all. Each test's last screen goes to SEEDLINT_SCREENSHOTS (or its directory), to look at when
it fails; with SEEDLINT_UPDATE_SCREENSHOT=1 the first test takes the extension README's
screenshot.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CHROMIUM, run_cli

ROOT = Path(__file__).parents[1]
VSIX = ROOT / "editors" / "vscode" / "seedlint.vsix"
CODE_SERVER = os.environ.get("SEEDLINT_CODE_SERVER") or shutil.which("code-server")
TRAIN = (
    "import torch\n"
    "\n"
    "x = torch.randn(3)\n"
    "torch.manual_seed(0)\n"
    "model = torch.nn.Linear(3, 1)\n"
    "print(model(x).item())\n"
)

pytestmark = pytest.mark.skipif(
    not (CODE_SERVER and CHROMIUM and VSIX.exists())
    or __import__("importlib").util.find_spec("playwright") is None,
    reason="needs code-server, chromium, playwright and editors/vscode/seedlint.vsix (.ci/run)",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _workspace(folder: Path, ignore: list[str] | None = None) -> Path:
    folder.mkdir()
    (folder / "train.py").write_text(TRAIN)
    # the same program as a notebook: an import cell, then the draw before the seed
    cells = [["import torch\n"], TRAIN.splitlines(keepends=True)[2:]]
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": c,
            }
            for c in cells
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / "explore.ipynb").write_text(json.dumps(notebook))
    seedlint = str(Path(sys.executable).with_name("seedlint"))
    settings = {
        "seedlint.path": [seedlint],
        "workbench.startupEditor": "none",
        # VS Code's notebook editor, also when a notebook is opened before its serializer is ready
        "workbench.editorAssociations": {"*.ipynb": "jupyter-notebook"},
    }
    (folder / ".vscode").mkdir()
    (folder / ".vscode" / "settings.json").write_text(json.dumps(settings))
    if ignore is not None:  # the control: the finding suppressed in the project's configuration
        (folder / "pyproject.toml").write_text(f"[tool.seedlint]\nignore = {json.dumps(ignore)}\n")
    return folder


class CodeServer:
    """code-server on a free loopback port, with the extension installed in its own directories."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.dirs = [
            f"--user-data-dir={home / 'user-data'}",
            f"--extensions-dir={home / 'extensions'}",
        ]
        installed = subprocess.run(
            [CODE_SERVER, *self.dirs, "--install-extension", str(VSIX)],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert installed.returncode == 0, installed.stdout + installed.stderr
        self.port = _free_port()
        self.log = (home / "code-server.log").open("w")
        self.process = subprocess.Popen(
            [
                CODE_SERVER,
                *self.dirs,
                "--auth=none",
                f"--bind-addr=127.0.0.1:{self.port}",
                "--disable-telemetry",
                "--disable-update-check",
                "--disable-workspace-trust",
                "--disable-getting-started-override",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.3)
        raise AssertionError((home / "code-server.log").read_text())

    def url(self, folder: Path) -> str:
        return f"http://127.0.0.1:{self.port}/?folder={folder}"

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="module")
def code_server(tmp_path_factory):
    server = CodeServer(tmp_path_factory.mktemp("code-server"))
    yield server
    server.close()


def _open(page, code_server: CodeServer, folder: Path, name: str) -> None:
    page.goto(code_server.url(folder))
    page.wait_for_selector(".monaco-workbench", timeout=60_000)
    page.get_by_role("treeitem", name=name).click(timeout=60_000)  # in the explorer
    page.wait_for_selector(f'.tab[aria-label*="{name}"]', timeout=30_000)


def _problems(page) -> str:
    """What the Problems panel shows (opened if it is not: its key toggles it)."""
    if not page.is_visible(".markers-panel"):
        page.keyboard.press("Control+Shift+M")
    return page.wait_for_selector(".markers-panel", timeout=30_000).inner_text()


def test_the_problems_panel_lists_the_finding_and_the_quick_fix_fixes_the_file(
    code_server, page, tmp_path
):
    folder = _workspace(tmp_path / "project")
    _open(page, code_server, folder, "train.py")
    text = _wait_for_problem(page, "SL104")
    assert "SL104" in text and "before" in text, text
    expected = tmp_path / "expected"
    expected.mkdir()
    (expected / "train.py").write_text(TRAIN)
    run_cli("check", "--fix", "--unsafe-fixes", "train.py", cwd=expected)  # the fix is unsafe
    # the lightbulb on the finding's line: its quick fix, then save
    page.locator(".view-lines .view-line", has_text="randn").click()
    page.keyboard.press("Control+.")
    menu = page.wait_for_selector(".action-widget", timeout=30_000)
    fixes = menu.inner_text()
    # the extension README's screenshot, when asked for (SEEDLINT_UPDATE_SCREENSHOT=1)
    shot = (
        ROOT / "editors/vscode/images" if os.environ.get("SEEDLINT_UPDATE_SCREENSHOT") else tmp_path
    )
    page.screenshot(path=str(shot / "quick-fix.png"))
    assert "Disable SL104 for this line" in fixes, fixes
    assert "SL104: Move the seeding statement" in fixes.splitlines()[1], fixes  # first, chosen
    page.keyboard.press("Enter")
    page.keyboard.press("Control+S")
    deadline = time.monotonic() + 30
    while (folder / "train.py").read_text() == TRAIN and time.monotonic() < deadline:
        page.wait_for_timeout(300)
    assert (folder / "train.py").read_text() == (expected / "train.py").read_text()


def _wait_for_problem(page, text: str) -> str:
    """The Problems panel's text once it shows `text` (what it shows after a minute, if never)."""
    deadline = time.monotonic() + 60
    while text not in (shown := _problems(page)) and time.monotonic() < deadline:
        page.wait_for_timeout(1000)
    return shown


def test_hover_shows_the_rule_s_page(code_server, page, tmp_path):
    folder = _workspace(tmp_path / "hover")
    _open(page, code_server, folder, "train.py")
    assert "SL104" in _wait_for_problem(page, "SL104")
    page.locator(".view-lines .view-line", has_text="randn").get_by_text("randn").hover()
    hover = page.wait_for_selector(".monaco-hover:has-text('What it flags')", timeout=30_000)
    assert "random-before-seed" in hover.inner_text()


def test_a_notebook_cell_shows_its_finding(code_server, page, tmp_path):
    folder = _workspace(tmp_path / "notebook")
    _open(page, code_server, folder, "explore.ipynb")
    shown = _wait_for_problem(page, "SL104")
    assert "SL104" in shown and "explore.ipynb" in shown, shown


def test_a_finding_suppressed_in_the_configuration_shows_no_problem(code_server, page, tmp_path):
    # the control: the same files, SL104 ignored in pyproject.toml; the server still answers (its
    # SL106 on a line added for this) but shows no SL104
    folder = _workspace(tmp_path / "control", ignore=["SL104"])
    (folder / "train.py").write_text("import random\nrandom.seed()\n" + TRAIN)
    _open(page, code_server, folder, "train.py")
    shown = _wait_for_problem(page, "SL106")
    assert "SL106" in shown and "SL104" not in shown, shown
