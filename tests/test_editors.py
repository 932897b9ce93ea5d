"""A real editor, headless: Neovim (Debian's package) attaches `seedlint lsp` to a file with a seeding bug,
sees its diagnostic, and fixes the buffer with the server's code action."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
NEOVIM = shutil.which("nvim")


@pytest.mark.skipif(NEOVIM is None, reason="Neovim is not installed (apt-get install neovim)")
def test_neovim_shows_the_finding_and_applies_the_fix(tmp_path: Path):
    (tmp_path / "train.py").write_text(
        "import torch\n\ntorch.cuda.manual_seed_all(0)\nmodel = torch.nn.Linear(2, 2)\n"
    )
    result = tmp_path / "result.txt"
    script = Path(__file__).parent / "editors" / "neovim.lua"
    environment = {
        **os.environ,
        "SEEDLINT_PYTHON": sys.executable,
        "RESULT": str(result),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    subprocess.run(
        [NEOVIM, "--headless", "--clean", "-c", f"luafile {script}"],
        cwd=tmp_path,
        env=environment,
        timeout=120,
        check=True,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    seen = dict(line.split(": ", 1) for line in result.read_text().splitlines())
    assert seen["before"] == "SL101"
    assert seen["applied"].startswith("SL101")
    assert seen["after"] == ""
    assert "torch.manual_seed(0)\\ntorch.cuda.manual_seed_all(0)" in seen["text"]
