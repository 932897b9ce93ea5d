"""The persistent cache of the project model: reused only while nothing the findings depend on changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import run_cli

from seedlint.analysis.modules import _SETTLED_NS
from seedlint.cache import DIRECTORY_NAME
from seedlint.parallel import MIN_ITEMS, Pool
from seedlint.runner import CheckOptions, Runner

CORPUS = Path(__file__).parent / "corpus"

UTILS_SEEDING = "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
UTILS_NOT_SEEDING = "import torch\n\n\ndef set_seed(seed):\n    print(seed)\n"
TRAIN = "import torch\nfrom utils import set_seed\n\nmodel = torch.nn.Linear(2, 2)\nset_seed(0)\n"
OTHER = "import random\nrandom.seed(0)\nx = random.random()\n"


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def run(
    root: Path, cache_dir: Path | None, *paths: str, jobs: int | None = None
) -> tuple[Runner, list[tuple[str, str, int]]]:
    """One in-process run in `root` (with `jobs` processes), and (file, code, row) of every
    finding."""
    cwd = Path.cwd()
    os.chdir(root)
    try:
        runner = Runner(
            CheckOptions(
                paths=[Path(p) for p in paths or ["."]],
                cache=cache_dir is not None,
                cache_dir=cache_dir,
                jobs=jobs,
            )
        )
        report = runner.run()
    finally:
        os.chdir(cwd)
    return runner, sorted((d.path.name, d.code, d.start.row) for d in report.diagnostics)


def check(
    root: Path, cache_dir: Path | None, *paths: str
) -> tuple[list[tuple[str, str, int]], int]:
    """The findings of one run, and how many files it took from the cache."""
    runner, found = run(root, cache_dir, *paths)
    return found, runner.facts.hits


def json_output(root: Path, *args: str, env: dict | None = None) -> list[dict]:
    result = run_cli(
        "check", "--select", "ALL", "--output-format", "json", *args, cwd=root, env=env
    )
    assert result.returncode in (0, 1), result.stderr.decode()
    return json.loads(result.stdout)


def write_spawning(root: Path) -> None:
    """A program in one folder that runs a helper of another, whose spawned workers draw unseeded
    (SL108 at `work.py:11`: its callers are looked for in the project's files)."""
    write(
        root,
        "lib/work.py",
        "import torch\nimport torch.multiprocessing as mp\n\n\ndef worker(rank):\n"
        "    torch.randn(2)\n\n\ndef launch():\n    torch.manual_seed(0)\n"
        "    mp.spawn(worker, nprocs=2)\n",
    )
    write(root, "src/train.py", "from work import launch\n\nlaunch()\n")


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    write(root, "utils.py", UTILS_SEEDING)
    write(root, "train.py", TRAIN)
    write(root, "other.py", OTHER)
    return root


class TestReuse:
    def test_a_second_run_takes_every_file_from_the_cache_with_the_same_findings(
        self, project, tmp_path
    ):
        cache = tmp_path / "cache"
        first, first_hits = check(project, cache)
        second, second_hits = check(project, cache)
        assert first == second == [("train.py", "SL104", 4)]
        assert (first_hits, second_hits) == (0, 3)

    def test_editing_a_helper_re_lints_exactly_the_files_whose_analysis_read_it(
        self, project, tmp_path
    ):
        cache = tmp_path / "cache"
        check(project, cache)
        write(
            project, "utils.py", UTILS_NOT_SEEDING
        )  # set_seed no longer seeds: no draw before the seed
        found, hits = check(project, cache)
        assert found == []
        assert hits == 1  # other.py: it never read utils.py

    def test_a_new_seeding_helper_opens_the_seeding_rules_for_unchanged_callers(self, tmp_path):
        root = tmp_path / "project"
        write(root, "helpers.py", "def init_seeds(seed):\n    print(seed)\n")
        write(
            root,
            "train.py",
            "import torch\nfrom helpers import init_seeds\n\nx = torch.randn(2)\ninit_seeds(0)\n",
        )
        cache = tmp_path / "cache"
        assert check(root, cache)[0] == []
        write(
            root,
            "helpers.py",
            "import torch\n\n\ndef init_seeds(seed):\n    torch.manual_seed(seed)\n",
        )
        assert check(root, cache)[0] == [("train.py", "SL104", 4)]

    def test_a_module_that_appears_where_a_name_resolved_to_nothing_is_noticed(self, tmp_path):
        root = tmp_path / "project"
        write(root, "train.py", TRAIN)
        cache = tmp_path / "cache"
        assert check(root, cache)[0] == []  # `utils` cannot be read: set_seed is unknown
        write(root, "utils.py", UTILS_SEEDING)
        assert check(root, cache)[0] == [("train.py", "SL104", 4)]

    def test_a_module_that_shadows_another_root_s_and_its_deletion_are_noticed(self, tmp_path):
        # run from the project for src/train.py: `utils` is looked for in src/, then the project
        root = tmp_path / "project"
        write(root, "src/train.py", TRAIN)
        write(root, "utils.py", UTILS_NOT_SEEDING)
        cache = tmp_path / "cache"
        assert check(root, cache, "src/train.py")[0] == []
        write(root, "src/utils.py", UTILS_SEEDING)  # found first from now on
        assert check(root, cache, "src/train.py")[0] == [("train.py", "SL104", 4)]
        (root / "src" / "utils.py").unlink()
        # `utils` resolves as in the first run again: that run's findings are valid again
        assert check(root, cache, "src/train.py") == ([], 1)
        assert check(root, None, "src/train.py")[0] == []  # as without the cache

    def test_runs_over_the_tree_and_over_one_file_each_reuse_their_own_findings(self, tmp_path):
        # from the project: `utils` resolves under the project's root for a run over the tree
        # (every file's root), not for src/train.py alone; alternating runs must not thrash
        root = tmp_path / "project"
        write(
            root,
            "src/train.py",
            "import torch\nfrom utils import set_seed\n\nmodel = torch.nn.Linear(2, 2)\nset_seed(0)\n",
        )
        write(root, "lib/utils.py", UTILS_SEEDING)
        write(root, "lib/other.py", "import utils\n")
        cache = tmp_path / "cache"
        tree, one = check(root, cache), check(root, cache, "src/train.py")
        assert (check(root, cache)[1], check(root, cache, "src/train.py")[1]) == (3, 1)
        assert (check(root, cache)[0], check(root, cache, "src/train.py")[0]) == (tree[0], one[0])

    def test_other_settings_do_not_reuse_findings(self, project, tmp_path):
        cache = tmp_path / "cache"
        check(project, cache)
        write(project, "pyproject.toml", '[tool.seedlint]\nignore = ["SL104"]\n')
        assert check(project, cache) == ([], 0)
        Path(project / "pyproject.toml").unlink()
        assert check(project, cache) == ([("train.py", "SL104", 4)], 0)
        assert check(project, cache)[1] == 3

    def test_an_edited_file_reuses_the_summaries_of_unchanged_helpers_without_parsing_them(
        self, project, tmp_path
    ):
        cache = tmp_path / "cache"
        check(project, cache)
        write(project, "train.py", TRAIN + "model(torch.ones(2)).sum().backward()\n")
        runner, found = run(project, cache)
        assert found == [("train.py", "SL104", 4)]
        assert runner.facts.hits == 2
        # train.py is parsed once, for its gates and its findings; utils.py not at all: its summary is known.
        assert [path.name for path in runner.facts.project.parsed_files()] == ["train.py"]

    def test_modification_times_alone_change_nothing(self, project, tmp_path):
        cache = tmp_path / "cache"
        check(project, cache)
        for path in project.glob("*.py"):
            os.utime(path, (1, 1))
        assert check(project, cache)[1] == 3


def settle() -> None:
    """Wait until the files written so far are left alone long enough for their stamps to be
    trusted (their change time cannot be set back)."""
    time.sleep(_SETTLED_NS / 1e9 + 0.1)


@pytest.mark.skipif(os.name == "nt", reason="Windows has no change time: files are always read")
class TestStamps:
    def test_a_warm_run_reads_no_file_whose_stamp_holds(self, project, tmp_path):
        settle()
        cache = tmp_path / "cache"
        check(project, cache)
        runner, found = run(project, cache)
        assert found == [("train.py", "SL104", 4)]
        assert runner.facts.hits == 3
        assert runner.facts.finder.read_files() == []

    def test_an_edit_that_keeps_the_size_and_the_modification_time_is_noticed(
        self, project, tmp_path
    ):
        # the change time moves with any write, and cannot be set back
        settle()
        cache = tmp_path / "cache"
        assert check(project, cache)[0] == [("train.py", "SL104", 4)]
        utils = project / "utils.py"
        before = utils.stat()
        same_size = UTILS_NOT_SEEDING.replace("print(seed)", "print(seed)  # " + "x" * 8)
        assert len(same_size) == before.st_size
        utils.write_text(same_size)
        os.utime(utils, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert check(project, cache) == ([], 1)  # other.py never read utils.py
        assert check(project, None)[0] == []

    def test_runs_over_the_tree_and_over_one_file_alternately_read_nothing(self, tmp_path):
        # each sees other project files (where the callers of a function are looked for): what
        # each found of them is kept apart, as their findings are
        root = tmp_path / "project"
        write_spawning(root)
        settle()
        cache = tmp_path / "cache"
        runs = [run(root, cache), run(root, cache, "lib/work.py")]
        assert runs[0][1] == runs[1][1] == [("work.py", "SL108", 11)]
        assert all(runner.facts.finder.named for runner, _ in runs)  # callers were looked for
        for paths in [(), ("lib/work.py",), (), ("lib/work.py",)]:
            runner, found = run(root, cache, *paths)
            assert runner.facts.finder.read_files() == []
            assert found == runs[len(paths)][1]

    def test_what_workers_look_up_is_kept_so_the_second_run_reads_nothing(self, tmp_path):
        # the callers of `launch` are looked for in a worker process: the parent keeps what the
        # worker found, so the next run answers from the cache
        root = tmp_path / "project"
        write_spawning(root)
        for number in range(MIN_ITEMS):
            write(root, f"src/m{number}.py", f"import torch\n\nWIDTH = {number}\n")
        settle()
        cache = tmp_path / "cache"
        first, found = run(root, cache, jobs=2)
        assert found == [("work.py", "SL108", 11)]
        assert first.facts.finder.named  # looked for in the workers, kept here
        second, again = run(root, cache, jobs=2)
        assert again == found
        assert second.facts.finder.read_files() == []

    def test_a_file_written_just_now_is_read_again_by_the_next_run(self, project, tmp_path):
        # its clock may not have ticked since: a second write could keep its stamp
        cache = tmp_path / "cache"
        check(project, cache)
        runner, _ = run(project, cache)
        assert sorted(path.name for path in runner.facts.finder.read_files()) == [
            "other.py",
            "train.py",
            "utils.py",
        ]


def test_findings_and_fixes_are_identical_with_and_without_the_cache(tmp_path):
    """Every rule on the corpus (helpers in other modules included), uncached, cold and warm."""
    env = {"SEEDLINT_CACHE_DIR": str(tmp_path / "cache")}
    uncached = json_output(CORPUS, "--no-cache", ".")
    cold = json_output(CORPUS, ".", env=env)
    warm = json_output(CORPUS, ".", env=env)
    assert uncached == cold == warm
    assert {item["code"] for item in warm} >= {
        "SL101",
        "SL103",
        "SL104",
        "SL108",
        "SL201",
        "SL203",
        "SL205",
        "SL301",
    }
    assert any(item["fix"] for item in warm)


class TestSafety:
    def test_a_torn_or_foreign_cache_file_is_rebuilt(self, project, tmp_path):
        cache = tmp_path / "cache"
        check(project, cache)
        for store in cache.rglob(
            "*.pickle"
        ):  # killed while writing, on a filesystem without atomic rename
            store.write_bytes(store.read_bytes()[:40])
        assert check(project, cache) == ([("train.py", "SL104", 4)], 0)
        assert check(project, cache)[1] == 3

    def test_a_temporary_file_left_by_a_killed_run_is_ignored(self, project, tmp_path):
        cache = tmp_path / "cache"
        check(project, cache)
        for store in cache.rglob("*.pickle"):
            (store.parent / f".{store.name}.abc.tmp").write_bytes(b"half a pickle")
        assert check(project, cache) == ([("train.py", "SL104", 4)], 3)

    def test_two_runs_at_once_on_one_cache_both_succeed_and_leave_a_usable_cache(
        self, project, tmp_path
    ):
        env = {**os.environ, "SEEDLINT_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
        command = [sys.executable, "-m", "seedlint", "check", "--output-format", "concise", "."]
        runs = [
            subprocess.Popen(
                command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            for _ in range(2)
        ]
        outputs = [run.communicate(timeout=120) for run in runs]
        assert [run.returncode for run in runs] == [1, 1], outputs
        assert all(out.decode().startswith("train.py:4:9: SL104 ") for out, _ in outputs)
        assert check(project, tmp_path / "cache") == ([("train.py", "SL104", 4)], 3)

    def test_a_run_killed_at_any_moment_leaves_a_cache_the_next_run_uses_or_rebuilds(
        self, project, tmp_path
    ):
        env = {**os.environ, "SEEDLINT_CACHE_DIR": str(tmp_path / "cache")}
        command = [sys.executable, "-m", "seedlint", "check", "."]
        for delay in (0.05, 0.2, 0.4, 0.8):
            run = subprocess.Popen(
                command, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            try:
                run.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                run.kill()
                run.wait()
            assert check(project, tmp_path / "cache")[0] == [("train.py", "SL104", 4)]


class TestLocation:
    def test_the_cache_is_tagged_and_git_ignored_at_the_project_root(self, project):
        env = {"SEEDLINT_CACHE_DIR": ""}
        json_output(project, ".", env=env)
        directory = project / DIRECTORY_NAME
        assert (
            (directory / "CACHEDIR.TAG")
            .read_text()
            .startswith("Signature: 8a477f597d28d172789f06886806bc55")
        )
        assert (directory / ".gitignore").read_text().splitlines()[-1] == "*"
        assert list(directory.rglob("*.pickle"))

    def test_no_cache_writes_nothing(self, project):
        json_output(project, "--no-cache", ".", env={"SEEDLINT_CACHE_DIR": ""})
        assert not (project / DIRECTORY_NAME).exists()

    def test_cache_dir_option_and_environment_variable(self, project, tmp_path):
        json_output(
            project, "--cache-dir", str(tmp_path / "given"), ".", env={"SEEDLINT_CACHE_DIR": ""}
        )
        json_output(project, ".", env={"SEEDLINT_CACHE_DIR": str(tmp_path / "from-env")})
        assert list((tmp_path / "given").rglob("*.pickle")) and list(
            (tmp_path / "from-env").rglob("*.pickle")
        )
        assert not (project / DIRECTORY_NAME).exists()

    def test_a_project_that_cannot_be_written_caches_in_the_user_cache_directory(
        self, project, tmp_path
    ):
        (project / DIRECTORY_NAME).write_text(
            "not a directory"
        )  # the project cache cannot be created
        env = {"SEEDLINT_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
        first = json_output(project, ".", env=env)
        assert list((tmp_path / "user-cache" / "seedlint").rglob("*.pickle"))
        assert json_output(project, ".", env=env) == first

    def test_clean_removes_the_caches_below_the_current_directory(self, project, tmp_path):
        nested = project / "sub"
        write(nested, "train.py", TRAIN)
        env = {"SEEDLINT_CACHE_DIR": ""}
        json_output(project, ".", env=env)
        json_output(nested, ".", env=env)
        (project / "keep").mkdir()
        result = run_cli("clean", cwd=project, env=env)
        assert result.returncode == 0, result.stderr.decode()
        assert not (project / DIRECTORY_NAME).exists() and not (nested / DIRECTORY_NAME).exists()
        assert "Removing cache at: .seedlint_cache" in result.stderr.decode()
        assert (project / "keep").is_dir()


def _workers_of(items: list) -> list[tuple[object, int]]:
    """Each item with the process that had it. The chunks take unequal times, and not the same
    ones in two maps (ints, then 1-tuples): a pool that hands each chunk to the first worker free
    would give about half the items to the other worker the second time."""
    first = items[0][0] if isinstance(items[0], tuple) else items[0]
    slow = (first // 16) % (4 if isinstance(items[0], tuple) else 2) == 0
    time.sleep(0.008 if slow else 0.002)
    return [(item, os.getpid()) for item in items]


class TestPool:
    """Files the cache does not know are analysed in worker processes when there are enough of them."""

    def test_a_second_map_gives_each_item_to_the_worker_that_had_it(self):
        # a worker keeps the trees it parsed: a file's findings are looked for where its gates were
        pool = Pool(2, int, tuple)
        items = list(range(32 * MIN_ITEMS))  # 32 chunks of 16
        try:
            first = pool.map(_workers_of, items, _workers_of)
            second = pool.map(_workers_of, [(item,) for item in items], _workers_of, key=min)
        finally:
            pool.close()
        assert [item for item, _ in first] == items  # in order
        assert len({worker for _, worker in first}) == 2 and os.getpid() not in dict(first).values()
        kept = sum(dict(first)[item] == worker for (item,), worker in second)
        # a worker that runs out of its own chunks takes the other's last ones: some move
        assert kept >= 0.75 * len(items), (kept, len(items))

    def test_chunks_go_to_the_worker_that_had_most_of_their_items(self):
        pool = Pool(2, int, tuple)
        pool._had = {item: 0 if item % 64 < 48 else 1 for item in range(256)}
        chunks = [list(range(start, start + 16)) for start in range(0, 256, 16)]
        queues = pool._queues(chunks, lambda item: 1 + item % 7, lambda item: item)
        assert queues[0] and queues[1]
        for worker, queue in enumerate(queues):
            assert all((chunks[chunk][0] % 64 < 48) == (worker == 0) for chunk in queue)
            weights = [sum(1 + item % 7 for item in chunks[chunk]) for chunk in queue]
            assert weights == sorted(weights, reverse=True)  # heaviest first
        fresh = Pool(2, int, tuple)._queues(chunks, lambda item: 1, lambda item: item)
        assert sorted(map(len, fresh)) == [8, 8]  # none known: shared out by weight

    def test_chunks_none_had_go_in_runs_of_neighbours(self):
        # a package's files share its helpers: each worker takes a run of neighbouring chunks,
        # of about equal weight, heaviest first
        chunks = [list(range(start, start + 16)) for start in range(0, 256, 16)]
        weight = lambda item: 3 if item < 64 else 1  # noqa: E731
        queues = Pool(2, int, tuple)._queues(chunks, weight, lambda item: item)
        assert sorted(map(sorted, queues)) == [[0, 1, 2, 3], list(range(4, 16))]
        pool = Pool(3, int, tuple)
        pool._had = {item: 2 for item in range(64)}  # the first four chunks were worker 2's
        queues = pool._queues(chunks, lambda item: 1, lambda item: item)
        assert queues[2][:4] == [0, 1, 2, 3]
        runs = sorted(sorted(set(queue) - {0, 1, 2, 3}) for queue in queues)
        assert all(run == list(range(run[0], run[-1] + 1)) for run in runs if run)
        assert sorted(chunk for run in runs for chunk in run) == list(range(4, 16))

    def test_the_pool_gives_the_serial_run_s_findings_and_fixes_in_the_same_order(self, tmp_path):
        serial = json_output(CORPUS, "--no-cache", "--jobs", "1", ".")
        pooled = json_output(CORPUS, "--no-cache", "--jobs", "2", ".")
        assert pooled == serial
        cwd = Path.cwd()
        os.chdir(CORPUS)
        try:
            report = Runner(CheckOptions(paths=[Path(".")], cache=False, jobs=2)).run()
        finally:
            os.chdir(cwd)
        assert report.workers == 2
        assert [item["filename"] for item in serial] == sorted(
            (item["filename"] for item in serial), key=lambda name: [p for p in Path(name).parts]
        )

    def test_fixes_made_in_workers_are_written_as_a_serial_run_writes_them(self, tmp_path):
        trees = {jobs: shutil.copytree(CORPUS, tmp_path / f"jobs-{jobs}") for jobs in (1, 2)}
        for jobs, root in trees.items():
            result = run_cli(
                "check", "--no-cache", "--fix", "--unsafe-fixes", "--jobs", str(jobs), ".", cwd=root
            )
            assert result.returncode in (0, 1), result.stderr.decode()
        texts = [
            {path.relative_to(root): path.read_bytes() for path in sorted(root.rglob("*.py"))}
            for root in trees.values()
        ]
        assert texts[0] == texts[1]
        assert texts[0] != {
            path.relative_to(CORPUS): path.read_bytes() for path in sorted(CORPUS.rglob("*.py"))
        }

    def test_when_processes_cannot_be_started_the_run_goes_on_in_one(self, monkeypatch, capsys):
        def refuse(*args, **kwargs):
            raise OSError("no processes here")

        monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", refuse)
        cwd = Path.cwd()
        os.chdir(CORPUS)
        try:
            report = Runner(
                CheckOptions(paths=[Path(".")], select=["ALL"], cache=False, jobs=2)
            ).run()
        finally:
            os.chdir(cwd)
        assert report.workers == 0
        assert "analysing in one process (OSError: no processes here)" in capsys.readouterr().err
        expected = json_output(CORPUS, "--no-cache", "--jobs", "1", ".")
        assert len(report.diagnostics) == len(expected)
