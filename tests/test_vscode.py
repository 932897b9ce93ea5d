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
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import CHROMIUM, free_port, listening, run_cli, until

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


def _workspace(folder: Path, ignore: list[str] | None = None, settings: dict | None = None) -> Path:
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
    (folder / ".vscode").mkdir()
    _settings(
        folder,
        {
            "seedlint.path": [seedlint],
            "workbench.startupEditor": "none",
            # VS Code's notebook editor, also when a notebook is opened before its serializer is
            # ready
            "workbench.editorAssociations": {"*.ipynb": "jupyter-notebook"},
            **(settings or {}),
        },
    )
    if ignore is not None:  # the control: the finding suppressed in the project's configuration
        (folder / "pyproject.toml").write_text(f"[tool.seedlint]\nignore = {json.dumps(ignore)}\n")
    return folder


def _settings(folder: Path, settings: dict) -> None:
    """Write the workspace's settings (VS Code picks up a change at once)."""
    (folder / ".vscode" / "settings.json").write_text(json.dumps(settings))


class CodeServer:
    """code-server on a free loopback port, with the extension (and any others) installed in its
    own directories; the extension host's PATH is `path` (by default: this interpreter's
    `seedlint` first)."""

    def __init__(self, home: Path, extensions: tuple[Path, ...] = (), path: str | None = None):
        self.home = home
        self.dirs = [
            f"--user-data-dir={home / 'user-data'}",
            f"--extensions-dir={home / 'extensions'}",
        ]
        for extension in (VSIX, *extensions):
            installed = subprocess.run(
                [CODE_SERVER, *self.dirs, "--install-extension", str(extension)],
                capture_output=True,
                text=True,
                timeout=180,
            )
            assert installed.returncode == 0, installed.stdout + installed.stderr
        self.port = free_port()
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
            env={
                **os.environ,
                "PATH": path or f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            },
        )
        assert listening(self.port, 60), (home / "code-server.log").read_text()

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


def _fixed_by_check(folder: Path, name: str, text: str, *flags: str) -> str:
    """What `seedlint check --fix` (with `flags`) makes of a file holding `text`."""
    folder.mkdir()
    (folder / name).write_text(text)
    run_cli("check", "--fix", *flags, name, cwd=folder)
    return (folder / name).read_text()


def _saved(page, file: Path, before: str) -> str:
    """The file's text once a save has changed it from `before`."""
    return until(page, file.read_text, lambda text: text != before)


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
    # the fix is unsafe
    expected = _fixed_by_check(tmp_path / "expected", "train.py", TRAIN, "--unsafe-fixes")
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
    assert _saved(page, folder / "train.py", TRAIN) == expected


def _wait_for_problem(page, text: str) -> str:
    """The Problems panel's text once it shows `text` (what it shows after a minute, if never)."""
    return until(page, lambda: _problems(page), lambda shown: text in shown, 60)


SEEDS_TWO = (
    "import random\n"
    "\n"
    "import numpy as np\n"
    "import torch\n"
    "\n"
    "random.seed(0)\n"
    "torch.manual_seed(0)\n"
    "batch = torch.tensor(np.random.rand(3)) + torch.randn(3)\n"
    "torch.save(batch, 'batch.pt')\n"
)


def test_fix_all_on_save_applies_the_safe_fixes(code_server, page, tmp_path):
    # `source.fixAll.seedlint` in editor.codeActionsOnSave: a save writes what `check --fix` would
    on_save = {"editor.codeActionsOnSave": {"source.fixAll.seedlint": "explicit"}}
    folder = _workspace(tmp_path / "on-save", settings=on_save)
    (folder / "seeds.py").write_text(SEEDS_TWO)
    _open(page, code_server, folder, "seeds.py")
    assert "SL105" in _wait_for_problem(page, "SL105")
    page.locator(".view-lines .view-line", has_text="torch.save").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# saved")
    page.keyboard.press("Control+S")
    expected = _fixed_by_check(tmp_path / "expected", "seeds.py", SEEDS_TWO + "# saved")
    assert "np.random.seed(0)" in expected
    assert _saved(page, folder / "seeds.py", SEEDS_TWO) == expected


def _run_command(page, title: str) -> None:
    """Run a command from the command palette, by its title."""
    page.keyboard.press("F1")
    palette = page.wait_for_selector(".quick-input-widget input", timeout=30_000)
    palette.fill(f">{title}")
    page.wait_for_selector(
        f".quick-input-list .monaco-list-row:has-text('{title}')", timeout=30_000
    )
    page.keyboard.press("Enter")


def _output(page, text: str, count: int) -> str:
    """The Output panel's text (its words, as one line) once it holds `text` `count` times."""

    def words() -> str:
        shown = page.query_selector(".output-view .view-lines")
        return " ".join((shown.inner_text() if shown else "").replace("\xa0", " ").split())

    return until(page, words, lambda shown: shown.count(text) >= count)


def test_the_commands_fix_all_show_the_log_and_restart(code_server, page, tmp_path):
    folder = _workspace(tmp_path / "commands")
    (folder / "seeds.py").write_text(SEEDS_TWO)
    _open(page, code_server, folder, "seeds.py")
    assert "SL105" in _wait_for_problem(page, "SL105")
    page.locator(".view-lines .view-line", has_text="torch.save").click()
    _run_command(page, "seedlint: Fix All in This File")
    page.wait_for_selector(".view-lines .view-line:has-text('np.random.seed(0)')", timeout=30_000)
    page.keyboard.press("Control+S")
    expected = _fixed_by_check(tmp_path / "expected", "seeds.py", SEEDS_TWO)
    assert _saved(page, folder / "seeds.py", SEEDS_TWO) == expected
    _run_command(page, "seedlint: Show Server Log")
    assert "seedlint lsp (from setting)" in _output(page, "starting", 1)
    # restarted (started a second time), the server answers again: a finding typed afterwards
    _run_command(page, "seedlint: Restart Server")
    assert _output(page, "language server ready", 2).count("language server ready") == 2
    page.locator(".view-lines .view-line", has_text="torch.save").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("random.seed()")
    assert "SL106" in _wait_for_problem(page, "SL106")


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


STAND_IN = ROOT / "tests" / "editors" / "python-extension"
NOT_FOUND = (
    "seedlint was found neither in seedlint.path, nor in the Python interpreter, nor on PATH"
)


def _stand_in_vsix(folder: Path) -> Path:
    """The stand-in for the Python extension (its published API, see its `extension.js`), packed
    as a `.vsix`: a zip of its `extension/` folder."""
    vsix = folder / "python-stand-in.vsix"
    with zipfile.ZipFile(vsix, "w") as archive:
        for file in STAND_IN.iterdir():
            archive.write(file, f"extension/{file.name}")
    return vsix


def _extension_log(code_server: CodeServer) -> str:
    """What the extension logged (its output channel), over every window's session."""
    logs = sorted((code_server.home / "user-data" / "logs").rglob("*seedlint*.log"))
    return "".join(log.read_text() for log in logs)


def _wait_for_log(page, code_server: CodeServer, text: str, count: int) -> None:
    """Wait until the extension has logged `text` `count` times (fail after a minute)."""
    log = until(page, lambda: _extension_log(code_server), lambda log: log.count(text) >= count, 60)
    assert log.count(text) >= count, log


def test_without_seedlint_it_says_so_once_and_starts_when_an_interpreter_with_it_is_picked(
    page, tmp_path
):
    # the Python extension's interpreter (a bare virtualenv) has no seedlint, nor has PATH
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    path = os.pathsep.join(
        folder
        for folder in os.environ["PATH"].split(os.pathsep)
        if folder and not (Path(folder) / "seedlint").exists()
    )
    assert shutil.which("seedlint", path=path) is None
    settings = {"seedlint.path": [], "python.defaultInterpreterPath": str(bare / "bin" / "python")}
    folder = _workspace(tmp_path / "project", settings=settings)
    code_server = CodeServer(tmp_path / "home", (_stand_in_vsix(tmp_path),), path)
    try:
        _open(page, code_server, folder, "train.py")
        said = page.wait_for_selector(
            ".notification-toast:has-text('seedlint[lsp]')", timeout=60_000
        )
        assert "pip install 'seedlint[lsp]'" in said.inner_text()
        _wait_for_log(page, code_server, NOT_FOUND, 1)
        # the window reloaded: the extension starts again, finds no seedlint again, says nothing
        page.reload()
        page.wait_for_selector(".monaco-workbench", timeout=60_000)
        _wait_for_log(page, code_server, NOT_FOUND, 2)
        page.wait_for_timeout(2000)
        assert page.query_selector(".notification-toast:has-text('seedlint')") is None
        # another interpreter picked, one with seedlint: the server starts from it
        page.get_by_role("treeitem", name="train.py").click(timeout=30_000)
        _settings(folder, {**settings, "python.defaultInterpreterPath": sys.executable})
        assert "SL104" in _wait_for_problem(page, "SL104")
        assert f"starting {sys.executable} -m seedlint lsp (from interpreter)" in _extension_log(
            code_server
        )
    finally:
        code_server.close()
