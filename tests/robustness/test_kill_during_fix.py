"""`seedlint check --fix` killed at random moments leaves every file either original or completely fixed."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

FILES = 150


def _original(number: int) -> str:
    return f"import torch\n\n# file {number}\nx = torch.rand({number + 1})\ntorch.manual_seed({number})\n"


def _fixed(number: int) -> str:
    return f"import torch\n\n# file {number}\ntorch.manual_seed({number})\nx = torch.rand({number + 1})\n"


def _fix_run(root: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "seedlint", "check", ".", "--fix", "--unsafe-fixes", "--no-cache"],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def test_a_killed_fix_run_leaves_each_file_original_or_fixed(tmp_path):
    template = tmp_path / "template"
    template.mkdir()
    for number in range(FILES):
        (template / f"m{number:03}.py").write_text(_original(number))
    complete = tmp_path / "complete"
    shutil.copytree(template, complete)
    started = time.monotonic()
    assert _fix_run(complete).wait(timeout=300) == 0
    duration = time.monotonic() - started
    assert all((complete / f"m{n:03}.py").read_text() == _fixed(n) for n in range(FILES))

    rng = random.Random(0)
    outcomes = set()
    # Kills at shares of a whole run's time; the last run is left to finish (a kill timed after the end
    # would land early when the machine slows down, and the trial would not show a finished run).
    for trial, share in enumerate((0.3, 0.5, 0.65, 0.8, 0.9, None)):
        root = tmp_path / f"trial{trial}"
        shutil.copytree(template, root)
        run = _fix_run(root)
        if share is None:
            assert run.wait(timeout=300) == 0
        else:
            time.sleep(share * duration * rng.uniform(0.9, 1.1))
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
        for number in range(FILES):
            text = (root / f"m{number:03}.py").read_text()
            assert text in (_original(number), _fixed(number)), (trial, number, text)
            outcomes.add(text == _fixed(number))
        assert sorted(path.name for path in root.iterdir() if not path.name.startswith(".")) == [
            f"m{n:03}.py" for n in range(FILES)
        ]
    assert outcomes == {False, True}  # files left original by the kills, and fixed
