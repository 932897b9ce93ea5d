"""`seedlint verify` contains the programs it runs: a flood of output is capped, processes a program
leaves (forked, daemonised, deaf to SIGTERM) are gone after the verdict, so are temporary files, and
the harness's frames are never the user's code. Each test drives the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

import seedlint
from seedlint.verify.runs import RUN_MARKER

pytest.importorskip("torch")

needs_proc = pytest.mark.skipif(
    not Path("/proc/self/environ").exists(),
    reason="finding the processes that left the group reads Linux's /proc",
)
CLI = (sys.executable, "-m", "seedlint")
# The CLI importing the installed seedlint, whatever the working directory holds.
INSTALLED_CLI = (
    sys.executable,
    "-c",
    "import sys\ndel sys.path[0]\nfrom seedlint.cli import main\nmain()\n",
)
# Runs the command given as arguments, then prints the peak memory of the largest process it waited for.
PEAK_MEMORY = (
    "import resource, subprocess, sys\nsubprocess.run(sys.argv[1:])\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, file=sys.stderr)\n"
)
LIMIT = 120  # seconds: a verify that never returns fails its test instead of hanging the suite


def verify(
    cwd: Path,
    *args: str,
    env: dict | None = None,
    cli: tuple[str, ...] = CLI,
) -> tuple[list[dict], float, str]:
    """`seedlint verify --output-format json ARGS` in `cwd`: the verdicts, the seconds it took, its stderr."""
    start = time.monotonic()
    result = subprocess.run(
        [*cli, "verify", "--output-format", "json", *args],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=LIMIT,
        check=False,
    )
    stderr = result.stderr.decode()
    assert "Traceback" not in stderr, stderr
    return json.loads(result.stdout), time.monotonic() - start, stderr


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def _gone(pid: int) -> bool:
    """Whether a process has ended (a zombie, left for its parent to reap, has)."""
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (ProcessLookupError, FileNotFoundError):
        return True
    return state == "Z"


@pytest.fixture
def pid_file(tmp_path):
    """A file the programs append their processes' ids to; after the test, those a failed test
    left running are killed (checked to be a run's processes still, not a reused id)."""
    path = tmp_path / "pids"
    yield path
    for pid in _pids(path):
        with suppress(OSError):
            if RUN_MARKER.encode() in Path(f"/proc/{pid}/environ").read_bytes():
                os.kill(pid, signal.SIGKILL)


# The programs: `{pids}` is the file each process appends its id to. A process a program leaves is
# recorded before the program ends (a byte on the `recorded` pipe), so every run records it.
FORKS = """\
import os, time
recorded, record = os.pipe()
if os.fork() == 0:  # a child that keeps running, holding the program's stdout and stderr
    open({pids!r}, 'a').write(f'{{os.getpid()}}\\n')
    os.write(record, b'.')
    time.sleep(600)
os.read(recorded, 1)
print('the parent is done')
"""
DAEMON = """\
import os, tempfile, time
recorded, record = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:  # a daemon: a session of its own, its output on /dev/null
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        open({pids!r}, 'a').write(f'{{os.getpid()}}\\n')
        tempfile.mkstemp()
        os.write(record, b'.')
        time.sleep(600)
    os._exit(0)
os.wait()
os.read(recorded, 1)
"""
HANG = """\
import os, signal, tempfile, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
tempfile.mkstemp()
tempfile.mkdtemp()
if os.fork() == 0:
    os.setsid()  # out of the process group, deaf to SIGTERM too
open({pids!r}, 'a').write(f'{{os.getpid()}}\\n')
while True:
    time.sleep(1)
"""


def test_a_flood_of_output_is_drained_and_capped_and_the_report_says_so(tmp_path):
    (tmp_path / "flood.py").write_text(
        "import sys\nblock = b'x' * 4_000_000\nfor _ in range(250):\n    sys.stdout.buffer.write(block)\n"
    )  # 1 GB
    (item,), seconds, stderr = verify(
        tmp_path, "--timeout", "20", "flood.py", cli=(sys.executable, "-c", PEAK_MEMORY, *CLI)
    )
    assert item["status"] == "not-reproduced"
    assert item["detail"] == (
        "output truncated: a run wrote 1000.0 MB to stdout; seedlint kept the first and last "
        "32 KiB of each"
    )
    assert (
        int(stderr.split()[-1]) < 1_000_000_000
    )  # the peak of seedlint and the traced runs (torch), not 1 GB
    assert seconds < 30


def test_a_child_left_running_does_not_hold_the_verdict_and_is_killed(tmp_path, pid_file):
    (tmp_path / "forks.py").write_text(FORKS.format(pids=str(pid_file)))
    (item,), seconds, _ = verify(tmp_path, "--timeout", "15", "forks.py")
    assert (
        item["status"] == "not-reproduced"
    )  # not a timeout: the child holds the pipes, not the verdict
    assert seconds < 15
    assert len(_pids(pid_file)) == 2 and all(_gone(pid) for pid in _pids(pid_file))


@needs_proc
def test_a_daemon_is_killed_and_its_temporary_file_removed(tmp_path, pid_file):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    (tmp_path / "daemon.py").write_text(DAEMON.format(pids=str(pid_file)))
    (item,), _, _ = verify(tmp_path, "daemon.py", env={"TMPDIR": str(temporary)})
    assert item["status"] == "not-reproduced"
    assert len(_pids(pid_file)) == 2 and all(_gone(pid) for pid in _pids(pid_file))
    assert list(temporary.iterdir()) == []


@needs_proc
def test_a_hang_deaf_to_sigterm_is_killed_at_the_timeout_with_its_processes_and_temporary_files(
    tmp_path, pid_file
):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    (tmp_path / "hang.py").write_text(HANG.format(pids=str(pid_file)))
    (item,), seconds, _ = verify(
        tmp_path, "--timeout", "5", "hang.py", env={"TMPDIR": str(temporary)}
    )
    assert (item["status"], item["detail"]) == ("timeout", "no divergence before the timeout")
    assert seconds < 20
    assert len(_pids(pid_file)) == 4 and all(_gone(pid) for pid in _pids(pid_file))
    assert list(temporary.iterdir()) == []


@pytest.mark.parametrize("package", ["a checkout of seedlint", "an unrelated seedlint package"])
def test_the_divergent_draw_is_at_the_users_line_whatever_seedlint_package_the_directory_holds(
    tmp_path, package
):
    if (
        package == "a checkout of seedlint"
    ):  # `python -m seedlint` runs it, harness and tracer included
        shutil.copytree(
            Path(seedlint.__file__).parent,
            tmp_path / "seedlint",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        cli = CLI
    else:
        (tmp_path / "seedlint").mkdir()
        (tmp_path / "seedlint" / "__init__.py").write_text(
            "raise ImportError('not the seedlint verify runs')\n"
        )
        cli = INSTALLED_CLI
    (tmp_path / "train.py").write_text("import torch\nprint(torch.rand(3))\n")
    (item,), _, _ = verify(tmp_path, "train.py", cli=cli)
    assert item["status"] == "diverges", item["detail"]
    assert item["evidence"]["where"] == f"{tmp_path / 'train.py'}:2"
