"""`seedlint verify` end to end: real torch programs run twice in fresh processes (CPU)."""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest
from conftest import lint, run_cli

from seedlint.diagnostics import Diagnostic
from seedlint.pages import page_examples
from seedlint.source import Location
from seedlint.verify.imports import missing_module
from seedlint.verify.probe import (
    FileRuns,
    family_of,
    is_entry_point,
    judge,
    seed_sensitive,
)
from seedlint.verify.runs import Comparison, Run, RunPlan, run_all

pytest.importorskip("torch")

EXAMPLES = Path(__file__).parent / "examples"
CORPUS = Path(__file__).parent / "corpus"


def verify(tmp_path, *args: str) -> tuple[int, list[dict], str]:
    result = run_cli("verify", "--output-format", "json", *args, cwd=tmp_path)
    return result.returncode, json.loads(result.stdout or "[]"), result.stderr.decode()


@pytest.mark.parametrize("code, row", [("SL104", 6), ("SL105", 12), ("SL101", 9), ("SL306", 4)])
def test_page_example_is_confirmed_at_the_draw_and_fixed(tmp_path, code, row):
    example, _ = page_examples(code)
    (tmp_path / "example.py").write_text(example)
    returncode, items, stderr = verify(tmp_path, "example.py")
    assert returncode == 1, stderr
    (item,) = [i for i in items if i["code"] == code]
    assert item["status"] == "confirmed"
    assert item["evidence"]["where"] == f"{tmp_path / 'example.py'}:{row}"
    assert item["evidence"]["first"] != item["evidence"]["second"]
    assert item["fix_status"] == "fixed"
    assert "runs your code" in stderr


@pytest.mark.parametrize("code", ["SL104", "SL105", "SL101"])
def test_fixed_version_runs_agree(tmp_path, code):
    _, fixed = page_examples(code)
    (tmp_path / "fixed.py").write_text(fixed)
    returncode, items, _ = verify(tmp_path, "fixed.py")
    assert returncode == 0
    assert [(item["code"], item["status"]) for item in items] == [(None, "not-reproduced")]


def test_random_seed_is_confirmed_and_its_display_only_fix_is_said_so(tmp_path):
    (tmp_path / "train.py").write_text("import torch\ntorch.seed()\nprint(torch.randn(2))\n")
    returncode, items, _ = verify(tmp_path, "train.py")
    assert returncode == 1
    assert [(i["code"], i["status"], i["fix_status"]) for i in items] == [
        ("SL106", "confirmed", "no-fix")
    ]


def test_a_long_run_is_confirmed_at_its_first_divergence_and_leaves_no_process(tmp_path):
    # it diverges at its first draw, then would train for two minutes: the two runs go side by
    # side and stop there, not at the timeout
    marker = tmp_path / "pid"
    (tmp_path / "train.py").write_text(
        "import os, time\nimport torch\n"
        f"open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
        "model = torch.nn.Linear(4, 2)\ntorch.manual_seed(0)\n"
        "for step in range(1200):\n    model(torch.randn(4)).sum().backward()\n    time.sleep(0.1)\n"
    )
    start = time.monotonic()
    returncode, items, stderr = verify(tmp_path, "--timeout", "120", "--no-fix-check", "train.py")
    elapsed = time.monotonic() - start
    assert elapsed < 60, elapsed  # about one start-up (4 s here), not two timeouts (240 s)
    assert returncode == 1
    assert [(i["code"], i["status"]) for i in items] == [("SL104", "confirmed")]
    assert items[0]["seconds"] < elapsed  # the runs' time side by side, not their sum
    assert "train.py, runs 1-2: diverged at draw #0 after" in stderr
    pid = int(marker.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_terminal_gets_a_live_status_line(tmp_path):
    (tmp_path / "train.py").write_text(
        "import time\nimport torch\ntime.sleep(2.5)\nx = torch.randn(3)\ntorch.manual_seed(0)\n"
        "print(torch.nn.Linear(3, 1)(x).item())\n"
    )
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "seedlint", "verify", "--no-fix-check", "train.py"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=follower,
        env={**os.environ, "NO_COLOR": "1"},
    )
    os.close(follower)
    shown = b""
    with suppress(OSError):  # the terminal closes with the process
        while chunk := os.read(leader, 4096):
            shown += chunk
    process.wait(timeout=120)
    os.close(leader)
    text = shown.decode()
    assert re.search(r"\r  train\.py, runs 1-2: \d+ s, 0 and 0 draws traced", text), text
    assert "train.py, runs 1-2: diverged at draw #0 after" in text
    assert process.returncode == 1


def _trace(path: Path, *values: str, generator: str = "torch:cpu") -> Path:
    with path.open("a") as trace:
        for value in values:
            trace.write(json.dumps({"op": "aten.randn", "generator": generator, "hash": value}))
            trace.write("\n")
    return path


def test_compared_runs_stop_once_every_watched_family_has_diverged(tmp_path):
    comparison = Comparison([("torch:cpu",), ("numpy",)], "train.py, runs 1-2")
    first, second = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    _trace(first, "a", "b")
    _trace(second, "a", "c")
    comparison.follow(0, first)
    comparison.follow(1, second)
    assert not comparison.stop.is_set()  # numpy's draws have not parted yet
    _trace(first, "n1", generator="numpy")
    _trace(second, "n1", "n2", generator="numpy")
    comparison.follow(0, first)
    comparison.follow(1, second)
    assert not comparison.stop.is_set()  # equal so far: the second's next has no twin yet
    _trace(first, "n3", generator="numpy")
    with first.open("a") as trace:
        trace.write('{"op": "aten.ra')  # a line being written is read once it is whole
    comparison.follow(0, first)
    # counted as the verdict counts: among the draws of the family that parted last (NumPy's)
    assert comparison.stop.is_set() and comparison.diverged_at == 1
    assert "diverged at draw #1" in comparison.status()


def test_a_crashing_script_is_an_error_with_its_stderr(tmp_path):
    (tmp_path / "train.py").write_text(
        "import numpy as np\nimport torch\ntorch.manual_seed(0)\nraise SystemExit('no data at /data/x')\nnp.random.rand()\n"
    )
    returncode, items, _ = verify(tmp_path, "train.py")
    assert returncode == 0
    (item,) = items
    assert item["status"] == "error" and "no data at /data/x" in item["detail"]


def test_a_failing_script_shows_its_own_traceback_and_how_to_pass_arguments(tmp_path):
    (tmp_path / "train.py").write_text(
        "import argparse\nimport numpy as np\nimport torch\ntorch.manual_seed(0)\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('root')\nroot = parser.parse_args().root\n"
        "open(root + '/missing.csv')\nnp.random.rand()\n"
    )
    _, (usage,), _ = verify(tmp_path, "train.py")
    assert "the following arguments are required: root" in usage["detail"]
    assert "seedlint verify SCRIPT -- ARGS" in usage["detail"]
    _, (missing,), _ = verify(tmp_path, "train.py", "--", str(tmp_path))
    assert missing["status"] == "error"
    assert missing["detail"].startswith("Traceback (most recent call last):")
    assert (
        'train.py", line 8, in <module>' in missing["detail"] and "harness" not in missing["detail"]
    )
    assert "FileNotFoundError" in missing["detail"] and "SCRIPT -- ARGS" not in missing["detail"]


def test_script_arguments_after_the_separator_reach_the_script(tmp_path):
    (tmp_path / "train.py").write_text(
        "import sys\nimport torch\nimport numpy as np\ntorch.manual_seed(0)\n"
        "if sys.argv[1:] == ['--draw', 'yes']:\n    np.random.rand(3)\n"
    )
    _, items, _ = verify(tmp_path, "train.py", "--", "--draw", "yes")
    assert [(i["code"], i["status"]) for i in items] == [("SL105", "confirmed")]


@pytest.mark.skipif(
    subprocess.run(
        [sys.executable, "-c", "import torch; assert not torch.cuda.is_available()"]
    ).returncode
    != 0,
    reason="this machine has CUDA: the finding gets a real verdict",
)
def test_cuda_only_findings_need_cuda_on_a_cpu_machine(tmp_path):
    example, _ = page_examples("SL301")
    (tmp_path / "example.py").write_text(example)
    returncode, items, _ = verify(tmp_path, "example.py")
    assert returncode == 0
    assert ("SL301", "needs-cuda") in [(i["code"], i["status"]) for i in items]


@pytest.mark.parametrize(
    "code, label",
    [
        ("SL201", "epoch repeats the previous epoch's order"),
        ("SL202", "two DataLoader workers draw the same values"),
        ("SL203", "two DataLoader workers draw the same values"),
        ("SL107", "a different seed leaves the generator's draw unchanged"),
        ("SL204", "first divergent draw"),
        ("SL106", "first divergent draw"),
        ("SL206", "the output differs between hash seeds"),
        ("SL112", "first divergent draw"),
    ],
)
def test_each_probe_confirms_its_page_example(tmp_path, code, label):
    example, _ = page_examples(code)
    (tmp_path / "example.py").write_text(example)
    returncode, items, stderr = verify(tmp_path, "--no-fix-check", "--select", code, "example.py")
    (item,) = [i for i in items if i["code"] == code]
    assert (item["status"], item["evidence"]["label"]) == ("confirmed", label), stderr
    assert item["evidence"]["where"] is None or item["evidence"]["where"].startswith(
        str(tmp_path / "example.py")
    )
    assert returncode == 1


def test_examples_run_the_pages_with_their_fixed_versions(tmp_path):
    codes = ("SL108", "SL114", "SL304", "SL401")
    (tmp_path / "last.pt").write_bytes(b"the user's own checkpoint")
    result = run_cli(
        "verify",
        "--examples",
        "--select",
        ",".join(codes) + ",SL301",
        "--output-format",
        "json",
        cwd=tmp_path,
    )
    rows = {row["code"]: row for row in json.loads(result.stdout)}
    assert list(rows) == sorted([*codes, "SL301"])  # run at once (one per CPU), reported in order
    for code in codes:
        assert (rows[code]["example"], rows[code]["example_fix"], rows[code]["fixed_version"]) == (
            "confirmed",
            "fixed",
            "not-reproduced",
        ), code
    labels = {
        code: (rows[code]["evidence"]["label"], rows[code]["evidence"]["where"]) for code in codes
    }
    assert labels["SL108"][0] == "first divergent draw of child process SpawnProcess-1"
    assert labels["SL108"][1].endswith("sl108.py:7")  # the child's `nn.Linear`
    assert labels["SL304"] == ("the output differs between hash seeds", None)
    assert labels["SL401"][0] == "dropout draws although the module is in eval mode"
    assert labels["SL401"][1].endswith("sl401.py:12")  # the `F.dropout` line
    # resumed from its checkpoint, in a scratch directory: the first draw after the load differs
    assert labels["SL114"][0].startswith("resumed from last.pt, the run draws differently")
    assert labels["SL114"][1].endswith("sl114.py:16")
    assert rows["SL301"]["example"] in ("needs-cuda", "confirmed", "not-reproduced")
    assert result.returncode == 0
    # no run resumed from the user's checkpoint, and none left one here
    assert [p.name for p in tmp_path.iterdir()] == ["last.pt"]
    assert (tmp_path / "last.pt").read_bytes() == b"the user's own checkpoint"


@pytest.mark.skipif(
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import torch.distributed as d; assert d.is_available() and d.is_gloo_available()",
        ]
    ).returncode
    != 0,
    reason="torch.distributed with gloo is not available",
)
def test_torchrun_ddp_without_set_epoch_is_confirmed_on_every_rank(tmp_path):
    script = tmp_path / "train_ddp.py"
    script.write_text((EXAMPLES / "train_ddp.py").read_text())
    returncode, items, stderr = verify(
        tmp_path,
        "--launcher",
        "torchrun",
        "--nproc-per-node",
        "2",
        "--timeout",
        "120",
        "train_ddp.py",
    )
    (item,) = items
    assert (item["code"], item["status"], item["fix_status"]) == ("SL201", "confirmed", "fixed"), (
        stderr
    )
    assert item["ranks"] == ["confirmed", "confirmed"]
    assert returncode == 1


def test_a_hanging_script_is_killed_and_reported_as_timeout(tmp_path):
    (tmp_path / "train.py").write_text(
        "import time\nimport numpy as np\nimport torch\ntorch.manual_seed(0)\ntime.sleep(600)\nnp.random.rand(2)\n"
    )
    start = time.monotonic()
    returncode, items, _ = verify(tmp_path, "--timeout", "5", "--no-fix-check", "train.py")
    assert time.monotonic() - start < 60
    assert [(i["code"], i["status"]) for i in items] == [("SL105", "timeout")]
    assert returncode == 0


def test_the_fixes_of_the_entry_point_and_its_helper_modules_are_served_together(tmp_path):
    (tmp_path / "utils.py").write_text(
        "import torch\n\n\ndef set_seed(seed):\n    torch.cuda.manual_seed_all(seed)\n"
    )
    (tmp_path / "train.py").write_text(
        "import torch\nfrom utils import set_seed\n\nset_seed(0)\nprint(torch.nn.Linear(2, 2).weight)\n"
    )
    returncode, items, stderr = verify(tmp_path, "train.py")
    found = {(i["filename"].rsplit("/", 1)[-1], i["code"]): i for i in items}
    assert found[("train.py", "SL101")]["status"] == "confirmed", stderr
    assert found[("train.py", "SL101")]["fix_status"] == "fixed"


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.py"], "missing.py: No such file or directory"),
        (["--select", "SL999", "."], "unknown rule selector"),
    ],
)
def test_usage_errors_are_one_line_and_run_nothing(tmp_path, args, message):
    result = run_cli("verify", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr.decode() and "runs your code" not in result.stderr.decode()
    assert "Traceback" not in result.stderr.decode()


def test_cuda_only_findings_are_judged_by_their_output_when_no_draw_differs():
    diagnostic = Diagnostic(
        "SL301",
        "cudnn-benchmark-enabled",
        "benchmark",
        Path("t.py"),
        Location(1, 1),
        Location(1, 2),
    )
    same_draws = [
        {
            "op": "aten.uniform_",
            "generator": "torch:cpu",
            "hash": "a",
            "prefix": [0.1],
            "where": None,
        }
    ]
    runs = FileRuns(
        [
            Run(same_draws, 0, "", 1.0, stdout="sum 1.2345678\n"),
            Run(same_draws, 0, "", 1.0, stdout="sum 1.2345679\n"),
        ]
    )
    verdict = judge(diagnostic, runs, fixable=True)
    assert (verdict.status, verdict.evidence.label, verdict.evidence.second) == (
        "confirmed",
        "the output differs between runs",
        ["sum 1.2345679"],
    )
    runs.original[1].stdout = runs.original[0].stdout
    assert judge(diagnostic, runs, fixable=True).status == "not-reproduced"


def test_draws_of_unseeded_rng_objects_are_traced(tmp_path):
    (tmp_path / "train.py").write_text(
        "import numpy as np\nimport torch\ntorch.manual_seed(0)\nrng = np.random.default_rng()\nprint(rng.normal(size=2))\n"
    )
    _, items, _ = verify(tmp_path, "--no-fix-check", "train.py")
    (item,) = items
    assert (item["code"], item["status"], item["evidence"]["op"]) == (
        "SL106",
        "confirmed",
        "object:numpy.normal",
    )
    assert item["evidence"]["where"] == f"{tmp_path / 'train.py'}:5"


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_kills_the_runs_and_removes_temporary_files(tmp_path, jobs):
    started = tmp_path / "started"
    started.mkdir()
    (tmp_path / "train.py").write_text(
        "import os, time\nimport torch\nmodel = torch.nn.Linear(2, 2)\ntorch.manual_seed(0)\n"
        f"open(os.path.join({str(started)!r}, str(os.getpid())), 'w').close()\ntime.sleep(600)\n"
    )
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary), "NO_COLOR": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "seedlint", "verify", "--jobs", str(jobs), "train.py"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # the two runs of a run-to-run finding (SL104 here) go side by side, whatever --jobs says
    at_once = 2
    deadline = time.monotonic() + 60
    while len(list(started.iterdir())) < at_once and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(list(started.iterdir())) == at_once
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(
            f"seedlint verify did not stop on Ctrl-C; stderr: {process.communicate()[1].decode()!r}"
        )
    assert "Traceback" not in stderr.decode()
    time.sleep(1.0)
    pids = [int(path.name) for path in started.iterdir()]
    assert len(pids) == at_once  # no run started after Ctrl-C (the fixed version's wait their turn)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert [
        p.name for p in temporary.iterdir() if p.name.startswith("seedlint")
    ] == []  # (torch makes its own)


def test_examples_table_shows_each_rule_as_soon_as_it_is_known(tmp_path):
    # SL100's row needs no run; SL104's needs six: the first rows come while the runs go on.
    process = subprocess.Popen(
        [sys.executable, "-m", "seedlint", "verify", "--examples", "--select", "SL100,SL104"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    header, first = process.stdout.readline(), process.stdout.readline()
    running = process.poll() is None
    rest, _ = process.communicate(timeout=300)
    assert header.split() == [
        b"rule",
        b"example",
        b"(->",
        b"with",
        b"the",
        b"page",
        b"fix)",
        b"fixed",
        b"version",
    ]
    assert first.split() == [b"SL100", b"static-only", b"-"] and running
    assert rest.split()[:4] == [b"SL104", b"confirmed", b"->", b"fixed"]


def test_runs_with_jobs_happen_at_once_and_come_back_in_order(tmp_path):
    # Each program waits for the other's file: they can only both finish if they run at the same time.
    for name, partner in (("a", "b"), ("b", "a")):
        (tmp_path / f"{name}.py").write_text(
            "import pathlib, sys, time\n"
            f"pathlib.Path({str(tmp_path / name)!r} + '.here').touch()\n"
            "deadline = time.monotonic() + 30\n"
            f"while not pathlib.Path({str(tmp_path / partner)!r} + '.here').exists():\n"
            "    if time.monotonic() > deadline:\n        sys.exit(3)\n    time.sleep(0.05)\n"
            f"print({name!r})\n"
        )
    plans = [RunPlan(tmp_path / f"{name}.py", cwd=tmp_path, timeout=60) for name in ("b", "a")]
    runs = run_all(plans, jobs=2)
    assert [(run.returncode, run.stdout.strip()) for run in runs] == [(0, "b"), (0, "a")]


def test_spawned_children_run_the_fixed_main_module_and_are_traced(tmp_path):
    (tmp_path / "train.py").write_text(
        "import torch\nimport torch.multiprocessing as mp\n\n\n"
        "def worker(rank):\n    torch.manual_seed(rank)\n    print(rank, torch.randn(1).item())\n\n\n"
        "if __name__ == '__main__':\n    noise = torch.randn(2)\n    torch.manual_seed(0)\n"
        "    mp.spawn(worker, nprocs=2)\n"
    )
    returncode, items, stderr = verify(tmp_path, "train.py")
    (item,) = items
    # The fixed main module is served to the children too: `worker` unpickles, the fixed runs succeed.
    assert (item["code"], item["status"], item["fix_status"]) == ("SL104", "confirmed", "fixed"), (
        item["detail"]
    )
    assert returncode == 1


def test_a_fix_whose_program_crashes_is_an_error_not_fixed():
    diagnostic = Diagnostic(
        "SL104", "random-before-seed", "", Path("train.py"), Location(1, 1), Location(1, 2)
    )
    draw = {
        "kind": "draw",
        "op": "aten.randn",
        "generator": "torch:cpu",
        "where": "train.py:1",
        "prefix": [0.1],
    }
    differing = [Run([{**draw, "hash": value}], 0, "", 1.0) for value in ("a", "b")]
    crashed = [Run([{**draw, "hash": "a"}], 1, "Traceback ...\nPicklingError: worker", 1.0)] * 2
    verdict = judge(diagnostic, FileRuns(differing, crashed), fixable=True)
    assert (verdict.status, verdict.fix_status) == ("confirmed", "error")
    assert "PicklingError: worker" in verdict.detail


def _failing(where: str, draw_hash: str, kind: str = "IndexError") -> Run:
    """A run that made one draw, then stopped with an exception at `where`."""
    draw = {"kind": "draw", "op": "aten.randn", "generator": "torch:cpu", "where": "nb:2"}
    error = {
        "kind": "error",
        "type": kind,
        "message": "list index out of range",
        "where": where,
        "line": f"the line at {where}",
    }
    return Run([{**draw, "hash": draw_hash, "prefix": [0.1]}, error], 1, "Traceback ...", 1.0)


@pytest.mark.parametrize(
    "fixed_failures, fix_status",
    [
        ((("nb:9", "IndexError"), ("nb:9", "IndexError")), "fixed"),
        # the fixed program fails where the program did not, or otherwise: the fix's failure
        ((("nb:4", "IndexError"), ("nb:4", "IndexError")), "error"),
        ((("nb:9", "KeyError"), ("nb:9", "KeyError")), "error"),
    ],
)
def test_a_failure_of_the_program_itself_is_not_blamed_on_the_fix(fixed_failures, fix_status):
    diagnostic = Diagnostic(
        "SL105", "unseeded-generator", "", Path("nb"), Location(2, 1), Location(2, 2)
    )
    original = [_failing("nb:9", "a"), _failing("nb:9", "b")]
    fixed = [_failing(where, "c", kind) for where, kind in fixed_failures]
    verdict = judge(diagnostic, FileRuns(original, fixed), fixable=True)
    assert (verdict.status, verdict.fix_status) == ("confirmed", fix_status)
    assert (verdict.program_failure is not None) is (fix_status == "fixed")
    # the draws before the failure still differ after the fix: the fix did not fix them
    diverging = [_failing("nb:9", "c"), _failing("nb:9", "d")]
    again = judge(diagnostic, FileRuns(original, diverging), fixable=True)
    assert again.fix_status == "still-diverges" and again.program_failure["where"] == "nb:9"


def test_runs_stopped_at_their_divergence_leave_the_program_s_failure_to_a_run_to_its_end():
    diagnostic = Diagnostic(
        "SL105", "unseeded-generator", "", Path("nb"), Location(2, 1), Location(2, 2)
    )
    draw = {"kind": "draw", "op": "aten.randn", "generator": "torch:cpu", "where": "nb:2"}
    stopped = [
        Run([{**draw, "hash": value, "prefix": [0.1]}], None, "", 1.0, stopped=True)
        for value in "ab"
    ]
    fixed = [_failing("nb:9", "c"), _failing("nb:9", "c")]
    verdict = judge(diagnostic, FileRuns(stopped, fixed), fixable=True)
    assert (verdict.status, verdict.fix_status) == ("confirmed", "error")  # nothing to compare
    witnessed = FileRuns(stopped, fixed, unstopped=[_failing("nb:9", "e")])
    verdict = judge(diagnostic, witnessed, fixable=True)
    assert (verdict.status, verdict.fix_status) == ("confirmed", "fixed")
    assert verdict.program_failure["where"] == "nb:9"


def test_traced_rng_classes_pass_for_the_originals(tmp_path):
    """isinstance checks, pickling, copies and names of RNG objects behave as without the tracer."""
    script = tmp_path / "rngs.py"
    script.write_text(
        "import copy, pickle, random\nimport numpy as np\n"
        "r, rs, g = random.Random(0), np.random.RandomState(0), np.random.default_rng(0)\n"
        "print(isinstance(random._inst, random.Random), isinstance(np.random.mtrand._rand, np.random.RandomState))\n"
        "print(type(g) is np.random.Generator, isinstance(g, np.random.Generator), type(r).__name__, repr(g)[:16])\n"
        "for rng, draw in ((r, 'random'), (rs, 'rand'), (g, 'random')):\n"
        "    print(getattr(pickle.loads(pickle.dumps(rng)), draw)(), getattr(copy.deepcopy(rng), draw)())\n"
    )
    (tmp_path / "config.json").write_text("{}")
    plain = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path
    )
    traced = subprocess.run(
        [
            sys.executable,
            "-m",
            "seedlint.verify.harness",
            "trace.jsonl",
            "config.json",
            str(script),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert traced.returncode == 0, traced.stderr
    assert traced.stdout == plain.stdout
    assert plain.stdout.splitlines()[0] == "True True"
    assert "object:random.random" in (tmp_path / "trace.jsonl").read_text()


@pytest.mark.parametrize(
    "source, code, traced_as",
    [
        (
            "import torch, numpy as np\ntorch.manual_seed(0)\nnp.random.rand()\n",
            "SL105",
            ("numpy",),
        ),
        ("import torch, random\ntorch.manual_seed(0)\nrandom.random()\n", "SL105", ("random",)),
        ("import torch\nx = torch.randn(2)\ntorch.manual_seed(0)\n", "SL104", ("torch:cpu",)),
        (
            "import torch, numpy as np\ntorch.manual_seed(0)\nrng = np.random.default_rng()\n",
            "SL106",
            ("object:numpy",),
        ),
        (
            "import torch, random\ntorch.manual_seed(0)\nrng = random.Random()\n",
            "SL106",
            ("object:random",),
        ),
        ("import numpy as np\nnp.random.seed()\n", "SL106", ("numpy",)),
        (
            "import torch\ntorch.cuda.manual_seed_all(0)\nx = torch.randn(2)\n",
            "SL101",
            ("torch:cpu",),
        ),
    ],
)
def test_a_finding_names_the_generators_whose_draws_verify_compares(source, code, traced_as):
    (diagnostic,) = [d for d in lint(source, [code]).diagnostics if d.code == code]
    assert family_of(diagnostic) == traced_as
    assert not seed_sensitive(diagnostic)


@pytest.mark.parametrize(
    "source",
    [
        "import torch\ntorch.manual_seed(0)\ng = torch.Generator()\n",
        "import torch\ntorch.manual_seed(0)\ng = torch.Generator(device='cuda')\nx = torch.randn(2, generator=g, device='cuda')\n",
    ],
)
def test_an_unseeded_generator_object_is_verified_by_seed_sensitivity(source):
    diagnostics = [d for d in lint(source, ["SL102", "SL107"]).diagnostics]
    assert diagnostics and all(
        seed_sensitive(d) and family_of(d) == ("generator:",) for d in diagnostics
    )


def test_an_abort_after_the_program_ends_is_not_a_failure_of_the_program(tmp_path):
    """torch's process-group teardown sometimes aborts at exit; the program's draws are all there."""
    (tmp_path / "train.py").write_text(
        "import atexit, os\nimport torch\natexit.register(os.abort)\n"
        "x = torch.randn(2)\ntorch.manual_seed(0)\nprint(torch.randn(2))\n"
    )
    returncode, items, _ = verify(tmp_path, "train.py")
    assert [(i["code"], i["status"], i["fix_status"]) for i in items] == [
        ("SL104", "confirmed", "fixed")
    ]
    assert returncode == 1


def test_a_fixed_program_that_fails_before_its_end_is_an_error(tmp_path):
    # Once the fix moves the seed above it, `x` is the first draw of seed 0, and the program fails.
    (tmp_path / "train.py").write_text(
        "import torch\nx = torch.randn(2)\ntorch.manual_seed(0)\n"
        "if torch.equal(x, torch.manual_seed(0) and torch.randn(2)):\n    raise RuntimeError('drawn after the seed')\n"
    )
    returncode, items, _ = verify(tmp_path, "train.py")
    (item,) = items
    assert (item["status"], item["fix_status"]) == ("confirmed", "error")
    assert "RuntimeError: drawn after the seed" in item["detail"]
    assert returncode == 1


@pytest.mark.skipif(
    subprocess.run(
        [sys.executable, "-c", "import torch; assert torch.cuda.is_available()"]
    ).returncode
    != 0,
    reason="needs a CUDA machine",
)
def test_cuda_only_examples_get_real_verdicts_on_a_cuda_machine(tmp_path):
    codes = ("SL102", "SL103", "SL301", "SL302", "SL303", "SL305")
    result = run_cli(
        "verify", "--examples", "--select", ",".join(codes), "--output-format", "json", cwd=tmp_path
    )
    rows = {row["code"]: row for row in json.loads(result.stdout)}
    for code in codes:
        assert rows[code]["example"] in ("confirmed", "not-reproduced"), rows[code]
        assert rows[code]["fixed_version"] == "not-reproduced", rows[code]
    assert (
        rows["SL103"]["example"] == "not-reproduced"
    )  # torch.manual_seed already seeds every CUDA device


def test_a_rule_that_is_off_for_the_installed_torch_runs_its_example_as_a_plain_program(tmp_path):
    # SL305 is about a check torch 2.10 removed: on 2.13 the example is not flagged, it is run instead
    # (here without CUDA it fails, on a GPU it runs), and that is not reported as a missing finding.
    result = run_cli(
        "verify",
        "--examples",
        "--select",
        "SL305",
        "--device",
        "cuda",
        "--output-format",
        "json",
        cwd=tmp_path,
    )
    (row,) = json.loads(result.stdout)
    assert row["example"] in ("error", "not-reproduced") and "SL305 is off" in row["detail"], row
    assert result.returncode == 0


def test_worker_evidence_comes_from_the_loader_the_finding_is_about(tmp_path):
    (tmp_path / "train.py").write_text(
        "import numpy as np\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n\n\n"
        "class Noisy(Dataset):\n    def __init__(self):\n        self.rng = np.random.default_rng(0)\n\n"
        "    def __len__(self):\n        return 4\n\n    def __getitem__(self, index):\n        return self.rng.normal()\n\n\n"
        "class Plain(Dataset):\n    def __len__(self):\n        return 4\n\n    def __getitem__(self, index):\n"
        "        return float(index)\n\n\n"
        "def init_fn(worker_id):\n    np.random.seed(0)\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n"
        "    plain = DataLoader(Plain(), batch_size=2, num_workers=2, worker_init_fn=init_fn)\n"
        "    noisy = DataLoader(Noisy(), batch_size=2, num_workers=2)\n"
        "    print([b.tolist() for b in plain], [b.tolist() for b in noisy])\n"
    )
    _, items, stderr = verify(tmp_path, "--no-fix-check", "train.py")
    statuses = {(i["code"], i["location"]["row"]): i["status"] for i in items}
    # The constant worker seed is real, but nothing in the plain loader's workers draws: the noisy
    # loader's duplicated RNG object is SL202's evidence, not SL203's.
    assert statuses == {("SL203", 26): "not-reproduced", ("SL202", 32): "confirmed"}, stderr


def test_a_failure_under_torchrun_shows_the_ranks_error_and_a_missing_launcher_is_named():
    diagnostic = Diagnostic(
        "SL201", "missing-set-epoch", "", Path("train.py"), Location(1, 1), Location(1, 2)
    )
    ranks = (
        'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
        "RuntimeError: Distributed package doesn't have NCCL built in\n"
    )
    launcher = (
        'Traceback (most recent call last):\n  File "torch/distributed/run.py", line 1032\n'
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n  rank: 0 (local_rank: 0)\n"
    )
    verdict = judge(diagnostic, FileRuns([Run([], 1, ranks + launcher, 1.0)] * 2), fixable=False)
    assert verdict.status == "error"
    assert verdict.detail.endswith("RuntimeError: Distributed package doesn't have NCCL built in")
    no_launcher = (
        "ValueError: Error initializing torch.distributed using env:// rendezvous: "
        "environment variable RANK expected, but not set\n"
    )
    verdict = judge(diagnostic, FileRuns([Run([], 1, no_launcher, 1.0)] * 2), fixable=False)
    assert "add `--launcher torchrun --nproc-per-node 2`" in verdict.detail


@pytest.mark.parametrize(
    "program, missing",
    [
        ("import torch\nimport no_such_module.pyplot as plt\n", "no_such_module"),
        ("from no_such_module import x\n", "no_such_module"),
        ("if __name__ == '__main__':\n    import no_such_module\n", "no_such_module"),
        ("with open('x'):\n    import no_such_module\n", "no_such_module"),
        # the program's own fallback, an import that may not run, its own module, the stdlib
        ("try:\n    import no_such_module\nexcept ImportError:\n    pass\n", None),
        ("def plot():\n    import no_such_module\n", None),
        ("if args.plot:\n    import no_such_module\n", None),
        ("if __name__ != '__main__':\n    import no_such_module\n", None),  # only when imported
        ("import helpers\nfrom . import sibling\nimport json, torch\n", None),
        # where it finds its modules is its own business
        ("import sys\nsys.path.append('../toolbox')\nimport no_such_module\n", None),
    ],
)
def test_the_module_a_program_imports_and_this_interpreter_lacks(tmp_path, program, missing):
    (tmp_path / "helpers.py").write_text("")
    assert missing_module(program, tmp_path) == missing


def test_a_missing_module_is_said_in_one_line_before_any_run(tmp_path):
    (tmp_path / "train.py").write_text(
        "import torch\nimport no_such_module\nx = torch.randn(3)\ntorch.manual_seed(0)\n"
        "print(torch.nn.Linear(3, 1)(x).item())\n"
    )
    start = time.monotonic()
    returncode, items, stderr = verify(tmp_path, "train.py")
    assert [(i["code"], i["status"]) for i in items] == [("SL104", "needs-module")]
    (line,) = items[0]["detail"].splitlines()
    assert "train.py imports no_such_module, which " + sys.executable in line
    assert "Traceback" not in stderr and "running train.py (" not in stderr  # nothing ran
    assert time.monotonic() - start < 30 and returncode == 0


def test_nothing_to_verify_says_so(tmp_path):
    (tmp_path / "lib.py").write_text("def add(a, b):\n    return a + b\n")
    result = run_cli("verify", ".", cwd=tmp_path)
    assert result.stdout.decode().startswith("Nothing to verify: seedlint check finds nothing here")
    assert result.returncode == 0


def test_the_tracer_keeps_dynamo_out_without_importing_it_for_programs_that_do_not(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "plain.py").write_text(
        "import sys\nimport torch\ntorch.randn(2)\nprint('torch._dynamo' in sys.modules)\n"
    )
    (tmp_path / "compiled.py").write_text(
        "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "f = torch.compile(lambda x: F.dropout(x, 0.5) + torch.rand(4), backend='eager')\n"
        "print(f(torch.ones(4)).tolist(), f(torch.ones(4)).tolist())\n"
    )

    def traced(script: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "seedlint.verify.harness",
                f"{script}.jsonl",
                "config.json",
                script,
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )

    assert traced("plain.py").stdout == "False\n"  # no second spent importing Dynamo
    plain = subprocess.run(
        [sys.executable, "compiled.py"], capture_output=True, text=True, cwd=tmp_path
    )
    compiled = traced("compiled.py")
    assert compiled.returncode == 0 and compiled.stdout == plain.stdout
    assert (
        "Dynamo does not know how to trace" not in compiled.stderr
    )  # Dynamo did not trace the tracer
    assert '"op": "aten.rand"' in (tmp_path / "compiled.py.jsonl").read_text()


HELPER = (
    "import logging\nimport random\n\nimport torch\n\nlogger = logging.getLogger(__name__)\n\n\n"
    "def set_seed(seed):\n    torch.manual_seed(seed)\n\n\n"
    "def augment(x):\n    set_seed(0)\n    return x + random.random()\n"
)


def test_a_finding_in_a_helper_module_is_judged_from_the_entry_point_that_loads_it(tmp_path):
    (tmp_path / "utils.py").write_text(HELPER)
    (tmp_path / "train.py").write_text(
        "import torch\n\nfrom utils import augment\n\nif __name__ == '__main__':\n"
        "    torch.manual_seed(0)\n    print(augment(torch.zeros(1)))\n"
    )
    returncode, items, stderr = verify(tmp_path, ".")
    (item,) = (
        items  # utils.py is not run as a script, and train.py's runs are not "diverges" on their own
    )
    assert (item["code"], item["status"], item["fix_status"]) == ("SL105", "confirmed", "fixed"), (
        stderr
    )
    assert item["evidence"]["where"] == f"{tmp_path / 'utils.py'}:15"
    assert returncode == 1
    _, (alone,), _ = verify(tmp_path, "utils.py")
    assert (
        alone["status"] == "static-only"
        and "no entry point here loads this module" in alone["detail"]
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "import torch\n\n\ndef main():\n    pass\n\n\nif __name__ == '__main__':\n    main()\n",
            True,
        ),
        ("import torch\nx = torch.randn(2)\ntorch.manual_seed(0)\n", True),
        ("import torch\nfor _ in range(3):\n    torch.randn(2)\n", True),
        (
            HELPER,
            False,
        ),  # definitions and `logger = getLogger(..)`: a module to import, not a program
        (
            "from dataclasses import dataclass\n\n\n@dataclass\nclass Config:\n    lr: float = 0.1\n",
            False,
        ),
        ("with open('log.txt', 'w') as log:\n    log.write('start')\n", True),
        # words at the start of a docstring's or a string's lines are not work (a models module
        # whose docstring has a line "for circle dataset, ...")
        (
            '"""Models\nfor circle dataset, and\nprint(them) with\n"""\n\n'
            "import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n",
            False,
        ),
        ("def broken(:\n    main()\nmain()\n", False),  # it does not parse: it runs nothing
        ("import sys\n\nif __name__ != '__main__':\n    sys.path.append('lib')\n", False),
        ("print ('a call spelt with a space')\n", True),
    ],
)
def test_entry_points_are_files_that_do_work_when_run(text, expected):
    assert is_entry_point(text) is expected


# Issue 9's runnable classes, on the corpus programs that re-create them: the look-alikes seedlint now
# leaves alone run reproducibly; the misses it now finds are confirmed by the runs.
@pytest.mark.parametrize(
    "program, script, arguments",
    [
        (
            "seed_picked",
            "main.py",
            ("--manualSeed", "7"),
        ),  # picked only when none is given: give one
        ("spawn_top_level_seed", "train.py", ()),  # spawned children re-run the seeded top level
    ],
    ids=["seed-picked-when-none-is-given", "seeded-at-the-top-level-of-a-spawning-script"],
)
def test_corpus_look_alikes_are_not_flagged_and_their_runs_agree(
    tmp_path, program, script, arguments
):
    root = shutil.copytree(CORPUS / program, tmp_path / program)
    returncode, items, stderr = verify(root, script, "--", *arguments)
    assert [(item["code"], item["status"]) for item in items] == [(None, "not-reproduced")], stderr
    assert returncode == 0


@pytest.mark.parametrize(
    "program, script, code, fix_status",
    [
        (
            "ddp_hardwired",
            "train.py",
            "SL201",
            "fixed",
        ),  # set_epoch only under `if args.distributed`
        ("spawn_cuda_seed", "main.py", "SL108", "no-fix"),  # the spawned target seeds only CUDA
    ],
    ids=["set-epoch-under-an-unrelated-condition", "spawned-target-seeding-only-cuda"],
)
def test_corpus_misses_now_found_are_confirmed(tmp_path, program, script, code, fix_status):
    root = shutil.copytree(CORPUS / program, tmp_path / program)
    returncode, items, stderr = verify(root, script)
    (item,) = [item for item in items if item["code"] == code]
    assert (item["status"], item["fix_status"]) == ("confirmed", fix_status), stderr
    assert returncode == 1


def test_a_reseed_every_epoch_is_confirmed_by_replayed_draws_and_fork_rng_clears_it(tmp_path):
    example, fixed = page_examples("SL110")
    (tmp_path / "example.py").write_text(example)
    returncode, items, stderr = verify(tmp_path, "--no-fix-check", "example.py")
    (item,) = [i for i in items if i["code"] == "SL110"]
    assert item["status"] == "confirmed", stderr
    assert item["evidence"]["label"].endswith(
        "draws after the seeding on line 7 repeat those after its previous run"
    )
    assert returncode == 1
    (tmp_path / "example.py").write_text(
        fixed
    )  # the same seeding, inside `torch.random.fork_rng()`
    returncode, items, stderr = verify(tmp_path, "example.py")
    assert [(i["code"], i["status"]) for i in items] == [(None, "not-reproduced")], stderr
    assert returncode == 0


_HAS_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None


@pytest.mark.parametrize(
    "program, check, code",
    [
        ("eval_fixed_seed", "train_vae.py", "SL110"),
        ("augment_item_seed", ".", "SL110"),
        pytest.param(
            "rl_dqn_eval",
            "dqn.py",
            "SL111",
            marks=pytest.mark.skipif(not _HAS_GYMNASIUM, reason="gymnasium is not installed"),
        ),
    ],
    ids=[
        "evaluate-reseeds-every-epoch",
        "getitem-reseeds-every-item",
        "evaluation-env-never-seeded",
    ],
)
def test_corpus_programs_of_the_replay_and_environment_rules_are_confirmed(
    tmp_path, program, check, code
):
    root = shutil.copytree(CORPUS / program, tmp_path / program)
    returncode, items, stderr = verify(root, check)
    found = [(item["status"], item["fix_status"]) for item in items if item["code"] == code]
    # every finding of the rule in the program (augment_item_seed has two datasets that reseed)
    assert found and set(found) == {("confirmed", "no-fix")}, stderr
    assert returncode == 1


@pytest.mark.skipif(not _HAS_GYMNASIUM, reason="gymnasium is not installed")
def test_an_unseeded_environment_example_is_confirmed_and_fixed_by_its_page_fix(tmp_path):
    result = run_cli(
        "verify", "--examples", "--select", "SL111", "--output-format", "json", cwd=tmp_path
    )
    (row,) = json.loads(result.stdout)
    assert (row["example"], row["example_fix"], row["fixed_version"]) == (
        "confirmed",
        "fixed",
        "not-reproduced",
    )
    assert row["evidence"]["label"] == "the output differs between runs"


def _replay_trace(*kinds: str) -> list[dict]:
    """Trace records: "seed" at line 5, "save", "restore", or a draw whose value is the rest of the word."""
    records = []
    for kind in kinds:
        if kind in ("seed", "save", "restore"):
            records.append({"kind": kind, "op": kind, "generator": kind, "where": "train.py:5"})
        else:
            records.append(
                {
                    "kind": "draw",
                    "op": "aten.randn",
                    "generator": "torch:cpu",
                    "hash": kind,
                    "prefix": [kind],
                    "where": "train.py:9",
                }
            )
    return records


@pytest.mark.parametrize(
    "trace, confirmed",
    [
        (("seed", "a", "b", "seed", "a", "b"), True),  # the stretch after each seeding repeats
        (("seed", "a", "b", "seed", "a", "c"), False),
        (
            (
                "seed",
                "a",
                "save",
                "seed",
                "x",
                "restore",
                "b",
                "seed",
                "a",
                "save",
                "seed",
                "x",
                "restore",
                "b",
            ),
            True,
        ),
        (
            ("save", "seed", "a", "restore", "b", "save", "seed", "a", "restore", "c"),
            False,
        ),  # fork_rng around it
        (("a", "b", "a", "b"), False),  # no seeding in between
    ],
    ids=["replayed", "not-replayed", "through-an-inner-fork", "inside-fork_rng", "unseeded"],
)
def test_the_replay_probe_follows_saved_and_restored_states(trace, confirmed):
    diagnostic = lint(
        "import torch\nfor e in range(3):\n    torch.manual_seed(0)\n    torch.randn(1).backward()\n",
        {"SL110"},
    ).diagnostics[0]
    runs = FileRuns([Run(_replay_trace(*trace), 0, "", 1.0)] * 2)
    assert (judge(diagnostic, runs, fixable=None).status == "confirmed") is confirmed


def _checkpoint_record(op: str, name: str) -> dict:
    return {"kind": "checkpoint", "op": op, "prefix": [name]}


def _draw(value: str) -> dict:
    return {
        "kind": "draw",
        "op": "aten.randn",
        "generator": "torch:cpu",
        "hash": value,
        "prefix": [value],
        "where": "train.py:9",
    }


@pytest.mark.parametrize(
    ("interrupted", "resumed", "status", "detail"),
    [
        # the resumed run draws, after loading, what the run never stopped draws after saving
        (
            [_checkpoint_record("torch.save", "ckpt.pt")],
            [_draw("init"), _checkpoint_record("torch.load", "ckpt.pt"), _draw("b")],
            "not-reproduced",
            "resumed from ckpt.pt, the run draws what the run never stopped draws",
        ),
        (
            [_checkpoint_record("torch.save", "ckpt.pt")],
            [_draw("init"), _checkpoint_record("torch.load", "ckpt.pt"), _draw("init2")],
            "confirmed",
            "",
        ),
        # run again, the program started over: it resumes only when asked (`--resume`)
        (
            [_checkpoint_record("torch.save", "ckpt.pt")],
            [_draw("init"), _draw("a")],
            "not-reproduced",
            "did not load it: pass the arguments that make it resume",
        ),
        ([], [_draw("init"), _draw("a")], "not-reproduced", "saved no checkpoint"),
    ],
)
def test_the_resume_probe_aligns_the_runs_at_the_checkpoint(interrupted, resumed, status, detail):
    diagnostic = Diagnostic(
        "SL114", "resume-without-rng-state", "", Path("train.py"), Location(11, 5), Location(11, 9)
    )
    uninterrupted = [
        _draw("init"),
        _draw("a"),
        _checkpoint_record("torch.save", "ckpt.pt"),
        _draw("b"),
    ]
    runs = FileRuns(
        resumed=[
            Run(uninterrupted, 0, "", 1.0),
            Run(interrupted, 0, "", 1.0),
            Run(resumed, 0, "", 1.0),
        ]
    )
    verdict = judge(diagnostic, runs, fixable=None)
    assert verdict.status == status and detail in verdict.detail


def test_a_checkpoint_saved_outside_the_scratch_directory_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    example, _ = page_examples("SL114")
    (tmp_path / "example.py").write_text(
        example.replace('"last.pt"', 'os.path.join("out", "last.pt")')
    )
    _, items, stderr = verify(tmp_path, "--no-fix-check", "--select", "SL114", "example.py")
    (item,) = items
    assert item["status"] == "error", stderr
    assert "saves its checkpoint to 'out/last.pt', outside it" in item["detail"]
    assert list((tmp_path / "out").iterdir()) == []
