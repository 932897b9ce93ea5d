"""Shared helpers: lint a snippet with chosen rules, run the CLI as a subprocess."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from seedlint.analysis.context import AnalysisSettings
from seedlint.linter import Linter
from seedlint.results import LintResult
from seedlint.rules import RULES
from seedlint.selection import default_codes

# The keys of one finding in `--output-format json` (ruff's, plus `url`).
JSON_KEYS = {
    "code",
    "name",
    "message",
    "filename",
    "location",
    "end_location",
    "fix",
    "noqa_row",
    "url",
}


@pytest.fixture(autouse=True, scope="session")
def _cache_outside_the_repository(tmp_path_factory):
    """Runs of the CLI cache into a directory of the test session, not into tests/corpus."""
    os.environ["SEEDLINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("seedlint-cache"))
    yield
    os.environ.pop("SEEDLINT_CACHE_DIR", None)


def make_linter(codes=None, settings: AnalysisSettings | None = None) -> Linter:
    chosen = sorted(set(codes) if codes is not None else default_codes())
    return Linter(
        [RULES[code]() for code in chosen], settings or AnalysisSettings(), fixable=set(RULES)
    )


def lint(
    source: str,
    codes=None,
    *,
    path: str = "train.py",
    fix: str | None = None,
    settings: AnalysisSettings | None = None,
) -> LintResult:
    """Lint a (dedented) snippet; `codes` defaults to the default rule set."""
    data = textwrap.dedent(source).encode()
    return make_linter(codes, settings).lint(Path(path), data, fix)


def codes_of(source: str, codes=None, **kwargs) -> list[str]:
    return [d.code for d in lint(source, codes, **kwargs).diagnostics]


def run_cli(
    *args: str, cwd: Path | str | None = None, input: bytes | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m seedlint ARGS` in a subprocess, as a user would."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    full_env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "seedlint", *args],
        cwd=cwd,
        input=input,
        capture_output=True,
        env=full_env,
    )


@pytest.fixture
def write(tmp_path: Path):
    """Write dedented files under tmp_path: write("a.py", "code") -> Path."""

    def _write(name: str, source: str, encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(textwrap.dedent(source).encode(encoding))
        return path

    return _write


# Debian's Chromium, for the tests that drive an editor in a browser (VS Code, JupyterLab)
CHROMIUM = shutil.which("chromium")
# The flags this machine's closed network needs (no background connections, no GPU).
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def page(tmp_path, request):
    """A page of headless Chromium (Playwright), its last screen kept (SEEDLINT_SCREENSHOTS)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            yield page
        finally:  # what the page showed last, to look at when the test failed
            shots = Path(os.environ.get("SEEDLINT_SCREENSHOTS", tmp_path))
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / f"{request.node.name}.png"))
            browser.close()


def free_port() -> int:
    """A loopback port nothing listens on (for a server a browser test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int, seconds: float) -> bool:
    """Whether a server listens on the loopback port within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.3)
    return False


def until(page, read, holds, seconds: float = 30):
    """What `read()` gives once `holds` of it (what it gives after `seconds`, if never), the page
    left to work between reads."""
    deadline = time.monotonic() + seconds
    while not holds(value := read()) and time.monotonic() < deadline:
        page.wait_for_timeout(300)
    return value
