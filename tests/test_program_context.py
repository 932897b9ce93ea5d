"""Issue 25: each function judged where the program runs it, and only what was seen claimed.

Both sides of each class: the look-alike that real code got flagged for, and the true finding
beside it that must survive.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from conftest import codes_of, lint, run_cli

from seedlint.analysis import catalog
from seedlint.analysis.events import FRESH, Entry, Site

MAIN = """\
    import argparse

    import numpy as np
    import torch

    from runner import Runner


    def main():
        args = argparse.ArgumentParser().parse_args()
        torch.manual_seed(0)
        np.random.seed(0)
        Runner(args).train()


    if __name__ == "__main__":
        main()
    """
RUNNER = """\
    import numpy as np
    import torch
    from torch import nn


    class Runner:
        def __init__(self, args):
            self.args = args

        def train(self):
            torch.manual_seed(1)
            model = nn.Linear(3, 3)
            order = np.random.permutation(10)
            return model, order
    """


def check(root, *args: str) -> list[tuple[str, str, int]]:
    result = run_cli("check", "--isolated", "--output-format", "json", *args, ".", cwd=root)
    assert result.returncode in (0, 1), result.stderr.decode()
    return sorted(
        (item["filename"].rsplit("/", 1)[-1], item["code"], item["location"]["row"])
        for item in json.loads(result.stdout)
    )


def messages(root) -> list[str]:
    result = run_cli("check", "--isolated", "--output-format", "json", ".", cwd=root)
    return [item["message"] for item in json.loads(result.stdout)]


# ------------------------------------------------------------------ the entry of a flow
class TestEntry:
    def test_a_fresh_start_leaves_everything_unseeded(self):
        site = FRESH.unseeded_at(frozenset({catalog.NUMPY}))
        assert site is not None and site.row is None and FRESH.seeded == frozenset()

    def test_a_function_nothing_runs_has_an_entry_not_seen(self):
        unseen = Entry()
        assert unseen.unseeded_at(frozenset({catalog.NUMPY})) is None and not unseen.seeded

    def test_what_every_site_seeds_is_seeded_and_a_known_site_without_it_is_named(self):
        seeding = Site("main.py", 12, "train", frozenset({catalog.TORCH_CPU, catalog.NUMPY}), True)
        torch_only = Site("eval.py", 30, "train", frozenset({catalog.TORCH_CPU}), True)
        entry = Entry((seeding, torch_only))
        assert entry.seeded == {catalog.TORCH_CPU}
        assert entry.unseeded_at(frozenset({catalog.NUMPY})) is torch_only
        assert entry.unseeded_at(frozenset({catalog.TORCH_CPU})) is None

    def test_a_site_whose_own_state_is_not_known_names_nothing(self):
        unknown = Site("lib.py", 3, "train", frozenset(), False)
        assert Entry((unknown,)).unseeded_at(frozenset({catalog.NUMPY})) is None


# ------------------------------------------------------------------ callers in other modules
class TestCallersInOtherModules:
    def test_a_method_its_caller_seeded_is_left_alone(self, write, tmp_path):
        write("main.py", MAIN)
        write("runner.py", RUNNER)
        assert check(tmp_path) == []

    def test_a_caller_that_leaves_numpy_unseeded_gets_one_sl105_naming_its_call(
        self, write, tmp_path
    ):
        write("main.py", MAIN.replace("        np.random.seed(0)\n", ""))
        write("runner.py", RUNNER)
        assert check(tmp_path) == [("runner.py", "SL105", 13)]
        (message,) = messages(tmp_path)
        assert "its caller seeds before `Runner(args).train()` (line 12 of main.py)" in message

    def test_a_function_nothing_in_the_project_calls_is_not_said_never_to_seed(
        self, write, tmp_path
    ):
        write("runner.py", RUNNER)
        assert check(tmp_path) == []

    def test_a_draw_before_a_library_functions_own_seeding_is_still_reported(self, write, tmp_path):
        write(
            "lib.py",
            """\
            import torch
            from torch import nn


            def build_head(seed):
                head = nn.Linear(8, 2)
                torch.manual_seed(seed)
                return head
            """,
        )
        assert check(tmp_path) == [("lib.py", "SL104", 6)]

    def test_a_draw_every_caller_seeded_before_is_not_before_the_functions_own_seeding(
        self, write, tmp_path
    ):
        write(
            "lib.py",
            """\
            import torch
            from torch import nn


            def build_head(seed):
                head = nn.Linear(8, 2)
                torch.manual_seed(seed)
                return head
            """,
        )
        write(
            "main.py",
            "import torch\nfrom lib import build_head\n\ntorch.manual_seed(0)\nbuild_head(1)\n",
        )
        assert check(tmp_path) == []

    def test_cuda_only_seeding_is_judged_at_the_callers(self, write, tmp_path):
        write(
            "utils.py",
            """\
            import torch


            def set_seed(seed):
                torch.cuda.manual_seed_all(seed)
            """,
        )
        write(
            "seeded.py",
            "import torch\nfrom utils import set_seed\n\ntorch.manual_seed(0)\nset_seed(0)\n",
        )
        assert check(tmp_path) == []
        write("unseeded.py", "from utils import set_seed\n\nset_seed(0)\n")
        assert ("utils.py", "SL101", 5) in check(tmp_path)


# ------------------------------------------------------------------ processes
FORK = """\
    import multiprocessing as mp
    import random

    import numpy as np
    import torch


    def worker(rank):
        noise = torch.randn(3)
        jitter = random.random()
        order = np.random.permutation(5)
        return noise, jitter, order


    def seeded_worker(rank):
        random.seed(rank)
        return random.random()


    def main():
        random.seed(0)
        np.random.seed(0)
        torch.manual_seed(0)
        mp.Process(target=worker, args=(0,)).start()
        mp.Process(target=seeded_worker, args=(0,)).start()


    if __name__ == "__main__":
        main()
    """


class TestProcesses:
    def test_a_forked_worker_drawing_from_random_is_reported_and_torch_and_numpy_are_inherited(
        self,
    ):
        (diagnostic,) = lint(FORK, {"SL104", "SL105"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row) == ("SL105", 10)
        assert "reseeds from OS entropy in the child process" in diagnostic.message

    def test_a_worker_handed_through_functools_partial_is_judged_the_same(self):
        source = FORK.replace(
            "    import random\n", "    import random\n    from functools import partial\n"
        )
        source = source.replace(
            "mp.Process(target=worker, args=(0,))", "mp.Process(target=partial(worker, 0))"
        )
        assert [(d.code, d.start.row) for d in lint(source, {"SL105"}).diagnostics] == [
            ("SL105", 11)
        ]

    def test_a_worker_init_fn_starts_with_every_generator_seeded_per_worker(self):
        source = """\
            import random

            import numpy as np
            import torch
            from torch.utils.data import DataLoader


            def seed_worker(worker_id):
                np.random.seed(torch.initial_seed() % 2**32)
                return random.random()


            torch.manual_seed(0)
            loader = DataLoader(range(8), num_workers=2, worker_init_fn=seed_worker)
            """
        assert codes_of(source, {"SL104", "SL105"}) == []


# ------------------------------------------------------------------ undone seeding
class TestUndoneSeeding:
    def test_a_seeding_between_save_and_restore_is_not_seeding_afterwards(self):
        source = """\
            import numpy as np
            import torch

            torch.manual_seed(0)
            state = np.random.get_state()
            np.random.seed(1)
            validation = np.random.permutation(10)
            np.random.set_state(state)
            noise = np.random.rand(3)
            """
        assert [(d.code, d.start.row) for d in lint(source, {"SL104", "SL105"}).diagnostics] == [
            ("SL105", 9)
        ]

    def test_a_saved_state_never_restored_leaves_the_seeding_as_it_is(self):
        source = """\
            import numpy as np
            import torch

            checkpoint = {"rng": np.random.get_state()}
            np.random.seed(1)
            torch.manual_seed(0)
            noise = np.random.rand(3)
            """
        assert codes_of(source, {"SL104", "SL105"}) == []

    def test_seeding_inside_fork_rng_does_not_make_the_code_seeding(self):
        source = """\
            import random

            import torch

            with torch.random.fork_rng():
                torch.manual_seed(0)
                preview = torch.randn(3)
            jitter = random.random() + preview.sum().item()
            """
        assert codes_of(source, {"SL104", "SL105"}) == []

    def test_a_draw_before_a_temporary_seeding_is_not_before_a_seed(self):
        source = """\
            import random

            random.seed(0)
            x = random.random()
            state = random.getstate()
            random.seed(4)
            y = random.random()
            random.setstate(state)
            print(x + y)
            """
        assert codes_of(source, {"SL104", "SL105"}) == []


# ------------------------------------------------------------------ values that reach nothing
SEEDED_LATER = "\ntorch.manual_seed(0)\n"


class TestValuesThatReachNothing:
    @pytest.mark.parametrize(
        "draw",
        [
            "x = torch.rand(3, 4)\nx, x.dtype\n",
            "x = torch.rand(3, 4)\nprint(f'{x.shape} {x.device}')\n",
            "image = torch.rand(2, 3)\nflipped = image.permute(1, 0)\nprint(flipped.shape)\n",
            "model = torch.nn.Linear(2, 2)\nprint(model)\nmodel = torch.nn.Linear(2, 3)\n",
            "model = torch.nn.Linear(2, 2)\nprint(sum(p.numel() for p in model.parameters()))\n",
            "a = torch.rand(3)\nb = a.numpy()\nb\na.mul_(2)\na.tolist()\n",
        ],
        ids=[
            "displayed",
            "shape-printed",
            "through-a-name",
            "bound-again",
            "parameter-count",
            "changed-in-place-and-shown",
        ],
    )
    def test_a_draw_only_shown_or_bound_again_is_not_before_the_seed(self, draw):
        source = f"import torch\n{draw}{SEEDED_LATER}model = torch.nn.Linear(2, 2)\nmodel(torch.ones(2)).sum().backward()\n"
        assert codes_of(source, {"SL104"}) == []

    @pytest.mark.parametrize(
        "draw",
        [
            "model = torch.nn.Linear(2, 2)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n",
            "x = torch.rand(3)\ny = x * 2\ntotal = y.sum()\ntotal.backward()\n",
            "model = torch.nn.Linear(2, 2)\nmodel.to('cpu')\nout = model(torch.ones(2))\n",
            "x = torch.rand(3)\nprint(run(x))\n",
        ],
        ids=[
            "given-to-an-optimizer",
            "computed-with",
            "moved-then-used",
            "printed-result-of-a-call",
        ],
    )
    def test_a_draw_whose_value_is_used_is_still_flagged(self, draw):
        source = f"import torch\n{draw}{SEEDED_LATER}"
        assert codes_of(source, {"SL104"}) == ["SL104"]

    @pytest.mark.parametrize(
        "draw",
        [
            "import matplotlib.pyplot as plt\nx = torch.rand(100)\nplt.hist(x.numpy(), bins=10)\n",
            "import matplotlib.pyplot as plt\nnoise = torch.randn(5)\nfig, ax = plt.subplots()\nax.plot(torch.sin(noise) + noise)\n",
            "w = torch.randn(2, 2)\nassert torch.allclose(w @ torch.eye(2), w)\n",
            "y = torch.randn(10)\nm = y.mean()\nprint(f'{m.item():.2f}')\n",
        ],
        ids=["plotted", "plotted-on-axes", "asserted", "printed-through-a-method"],
    )
    def test_a_draw_only_shown_before_the_seed_reaches_nothing(self, draw):
        source = f"import torch\n{draw}{SEEDED_LATER}model = torch.nn.Linear(2, 2)\nmodel(torch.ones(2)).sum().backward()\n"
        assert codes_of(source, {"SL104"}) == []

    def test_what_is_shown_after_the_seed_is_the_result(self):
        source = f"""\
            import matplotlib.pyplot as plt
            import torch
            x = torch.rand(100)
            {SEEDED_LATER.strip()}
            plt.plot(x + torch.rand(100))
            """
        assert codes_of(source, {"SL104"}) == ["SL104"]

    def test_a_layer_used_only_in_a_loop_whose_results_are_shown_reaches_nothing(self):
        source = f"""\
            import torch
            layer = torch.nn.Embedding(10, 4)
            for batch in [torch.tensor([1, 2])]:
                embedded = layer(batch)
                break
            print(embedded.shape)
            {SEEDED_LATER.strip()}
            """
        assert codes_of(source, {"SL104"}) == []
        used = source.replace("print(embedded.shape)", "embedded.sum().backward()")
        assert codes_of(used, {"SL104"}) == ["SL104"]

    def test_a_global_never_read_in_a_script_may_be_read_elsewhere(self):
        assert codes_of(f"import torch\nx = torch.rand(3){SEEDED_LATER}", {"SL104"}) == ["SL104"]

    def test_a_model_handed_to_a_weight_loading_helper_is_loaded(self):
        source = f"""\
            import torch
            from helpers import load_weights_into_gpt
            gpt = torch.nn.Linear(2, 2)
            load_weights_into_gpt(gpt, "gpt2.pt")
            {SEEDED_LATER.strip()}
            print(gpt(torch.ones(2)))
            """
        assert codes_of(source, {"SL104"}) == []


# ------------------------------------------------------------------ cache and editor
def test_a_callers_edit_rechecks_the_function_it_calls_through_the_cache(write, tmp_path):
    write("main.py", MAIN)
    write("runner.py", RUNNER)
    assert check(tmp_path, "--cache-dir", str(tmp_path / "cache")) == []
    write("main.py", MAIN.replace("        np.random.seed(0)\n", ""))
    assert check(tmp_path, "--cache-dir", str(tmp_path / "cache")) == [("runner.py", "SL105", 13)]
    write("main.py", MAIN)
    assert check(tmp_path, "--cache-dir", str(tmp_path / "cache")) == []


# ------------------------------------------------------------------ CUDA ops at distinct positions
ADD = """\
    import torch

    torch.manual_seed(0)
    out = torch.zeros(8, 4, device="cuda")
    src = torch.ones(3, 4, device="cuda", requires_grad=True)
    {positions}
    out.index_add_(0, positions, src)
    """


@pytest.mark.parametrize(
    "positions, codes",
    [
        ("positions = (torch.arange(8, device='cuda') > 4).nonzero().squeeze(-1)", []),
        ("positions = torch.nonzero(torch.rand(8, device='cuda') > 0.5)[:, 0]", []),
        ("positions = torch.tensor([0, 0, 1], device='cuda')", ["SL303"]),
    ],
    ids=["nonzero-squeezed", "torch-nonzero-column", "repeated-positions"],
)
def test_index_add_at_positions_from_nonzero_has_no_order_between_adds(positions, codes):
    assert codes_of(ADD.format(positions=positions), {"SL303"}) == codes


def test_no_fix_seeds_inside_a_block_that_restores_what_it_would_seed():
    """Found by fuzzing: the SL105 fix put `torch.manual_seed(0)` beside `np.random.seed(0)` inside
    `with torch.random.fork_rng():`, which undoes it on exit, so the finding came back."""
    source = """\
        import numpy as np
        import torch

        with torch.random.fork_rng():
            np.random.seed(0)
        x = torch.rand(3)
        x.sum().backward()
        """
    (diagnostic,) = lint(source, {"SL105"}).diagnostics
    assert diagnostic.code == "SL105" and diagnostic.fix is None


EVALUATION_LOADERS = """\
    import torch
    from torch.utils.data import DataLoader, RandomSampler


    def prepare(train_set, test_set):
        train_loader = DataLoader(train_set, sampler=RandomSampler(train_set))
        test_sampler = RandomSampler(test_set)
        test_loader = DataLoader(test_set, sampler=test_sampler)
        return train_loader, test_loader


    def evaluate(model, data):
        model.eval()
        with torch.no_grad():
            return sum(model(batch).sum().item() for batch in data)


    def run(model, data):
        total = 0.0
        for batch in data:
            total += model(batch).sum().item()
        return total


    def main(model, optimizer, train_set, test_set):
        train_loader, test_loader = prepare(train_set, test_set)
        for batch in train_loader:
            model(batch).sum().backward()
            optimizer.step()
        with torch.no_grad():
            for batch in test_loader:
                evaluate(model, [batch])
        return {EXTRA}


    main(None, None, [], [])
    """


@pytest.mark.parametrize(
    "extra, rows",
    [("None", [6]), ("run(model, test_loader)", [6, 7])],
    ids=["test-loader-only-evaluated", "test-loader-also-run-elsewhere"],
)
def test_a_sampler_whose_loader_is_returned_to_evaluation_only_is_left_alone(extra, rows):
    source = EVALUATION_LOADERS.replace("{EXTRA}", extra)
    assert [d.start.row for d in lint(source, {"SL204"}).diagnostics] == rows


# ------------------------------------------------------------------ modules a seeded program trains
TRAIN = """\
    import torch

    from models.net import Net


    def main():
        torch.manual_seed(0)
        model = Net().cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            loss = model(torch.randn(8, 3, 32, 32, device="cuda")).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
    """
NET = """\
    import torch.nn.functional as F
    from torch import nn

    from models.layers import Block


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def forward(self, x):
            return F.interpolate(self.block(x), scale_factor=2, mode="bilinear")
    """
LAYERS = """\
    from torch import nn


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.pad = nn.ReflectionPad2d(1)

        def forward(self, x):
            return self.pad(x)
    """


def _trained_project(write, train: str = TRAIN, where: str = "train.py") -> None:
    write(where, train)
    write("models/__init__.py", "")
    write("models/net.py", NET)
    write("models/layers.py", LAYERS)


class TestModulesASeededProgramTrains:
    def test_the_model_and_the_blocks_it_builds_are_in_scope_and_named_with_their_program(
        self, write, tmp_path
    ):
        _trained_project(write)
        assert check(tmp_path) == [("layers.py", "SL303", 7), ("net.py", "SL303", 13)]
        assert all("despite the seeding in `train.py`" in m for m in messages(tmp_path))

    @pytest.mark.parametrize(
        ("changes", "where"),
        [
            # deterministic algorithms on in the program
            (
                (("main():\n", "main():\n        torch.use_deterministic_algorithms(True)\n"),),
                "train.py",
            ),
            ((("        torch.manual_seed(0)\n", ""),), "train.py"),  # the program never seeds
            ((("            loss.backward()\n", ""),), "train.py"),  # nor runs backward passes
            (((".cuda()", ""), (', device="cuda"', "")), "train.py"),  # nor uses CUDA
            ((), "tests/train_net.py"),  # a test seeds for its own checks
            ((("def main", "def test_main"), ("    main()", "    test_main()")), "test_train.py"),
        ],
    )
    def test_a_program_that_is_not_a_seeded_cuda_training_run_puts_nothing_in_scope(
        self, write, tmp_path, changes, where
    ):
        train = TRAIN
        for change in changes:
            train = train.replace(*change)
        _trained_project(write, train, where)
        assert [f for f in check(tmp_path) if f[1] == "SL303"] == []

    def test_a_script_named_like_a_test_that_a_runner_collects_nothing_from_is_a_program(
        self, write, tmp_path
    ):
        _trained_project(write, TRAIN, "train_test.py")
        assert check(tmp_path) == [("layers.py", "SL303", 7), ("net.py", "SL303", 13)]

    def test_an_edit_of_the_program_rechecks_the_modules_it_trains_through_the_cache(
        self, write, tmp_path
    ):
        _trained_project(write)
        cache = ("--cache-dir", str(tmp_path / "cache"))
        assert len(check(tmp_path, *cache)) == 2
        write(
            "train.py",
            TRAIN.replace(
                "main():\n", "main():\n        torch.use_deterministic_algorithms(True)\n"
            ),
        )
        assert check(tmp_path, *cache) == []

    def test_only_the_classes_it_runs_are_in_scope_and_not_through_a_dataset(self, write, tmp_path):
        # the dataset's padding runs in the loader, on the CPU and without grad; nothing builds the
        # spare head
        train = TRAIN.replace("Net().cuda()\n", "Net().cuda()\n        data = Spectra()\n")
        _trained_project(write, train.replace("import Net\n", "import Net, Spectra\n"))
        spares = """\
            import torch


            class SpareHead(nn.Module):
                def forward(self, x):
                    return F.interpolate(x, scale_factor=2, mode="bilinear")


            class Spectra(torch.utils.data.Dataset):
                def __init__(self):
                    self.pad = nn.ReflectionPad2d(1)
            """
        write("models/net.py", textwrap.dedent(NET) + textwrap.dedent(spares))
        assert check(tmp_path) == [("layers.py", "SL303", 7), ("net.py", "SL303", 13)]


# ------------------------------------------------------------ branches the values rule out
class TestBranchesRuledOut:
    HELPERS = textwrap.dedent("""\
        import torch


        def resize(layer, jitter=False):
            layer.weight.data[-1:] = layer.weight.data[:-1].mean(0)
            if jitter:
                layer.weight.data[-1:] += torch.randn(1, 4)


        def set_seed(seed=None):
            if seed is not None:
                torch.manual_seed(seed)
        """)

    def test_a_draw_under_a_flag_left_to_its_false_default_is_not_made(self):
        source = (
            self.HELPERS
            + "layer = torch.nn.Embedding(3, 4)\nlayer.weight.data.zero_()\nresize(layer)\ntorch.manual_seed(0)\nprint(layer(torch.tensor([1])))\n"
        )
        assert codes_of(source, {"SL104"}) == []

    def test_a_draw_under_a_flag_passed_true_is_made(self):
        source = (
            self.HELPERS
            + "layer = torch.nn.Embedding(3, 4)\nlayer.weight.data.zero_()\nresize(layer, jitter=True)\ntorch.manual_seed(0)\nprint(layer(torch.tensor([1])))\n"
        )
        assert codes_of(source, {"SL104"}) == ["SL104"]

    def test_a_seeding_helper_called_without_its_seed_seeds_nothing(self):
        source = self.HELPERS + "set_seed()\nx = torch.rand(3)\nset_seed(0)\nprint(x)\n"
        assert codes_of(source, {"SL104", "SL106"}) == []

    def test_a_head_whose_weight_and_bias_are_zeroed_draws_nothing_that_stays(self):
        source = "import torch\nhead = torch.nn.Linear(4, 1)\nhead.weight.data.zero_()\ntorch.nn.init.zeros_(head.bias)\ntorch.manual_seed(0)\nhead(torch.ones(4)).sum().backward()\n"
        assert codes_of(source, {"SL104"}) == []

    def test_a_head_whose_bias_alone_is_zeroed_keeps_its_random_weight(self):
        source = "import torch\nhead = torch.nn.Linear(4, 1)\nhead.bias.data.zero_()\ntorch.manual_seed(0)\nhead(torch.ones(4)).sum().backward()\n"
        assert codes_of(source, {"SL104"}) == ["SL104"]


# ------------------------------------------------------------------ a test framework's set-up
CONFTEST = """\
    import pytest
    import torch


    @pytest.fixture
    def seed_all():
        torch.manual_seed(0)


    @pytest.fixture(name="model")
    def seeded_model(seed_all):
        return torch.nn.Linear(4, 2)
    """
TEST_MODEL = """\
    import torch


    def test_forward(model):
        inputs = torch.randn(3, 4)
        torch.manual_seed(1)
        noise = torch.randn(3, 2)
        assert torch.allclose(model(inputs) + noise, model(inputs) + noise)
    """


def test_a_fixture_named_by_another_fixture_seeds_before_the_test(write, tmp_path):
    write("tests/conftest.py", CONFTEST)
    write("tests/test_model.py", TEST_MODEL)
    assert check(tmp_path) == []
    write("tests/conftest.py", CONFTEST.replace("        torch.manual_seed(0)\n", "        pass\n"))
    assert check(tmp_path) == [("test_model.py", "SL104", 5)]


def test_an_edit_of_a_conftest_rechecks_its_tests_through_the_cache(write, tmp_path):
    cache = ("--cache-dir", str(tmp_path / "cache"))
    write("tests/conftest.py", CONFTEST)
    write("tests/test_model.py", TEST_MODEL)
    assert check(tmp_path, *cache) == []
    write("tests/conftest.py", CONFTEST.replace("        torch.manual_seed(0)\n", "        pass\n"))
    assert check(tmp_path, *cache) == [("test_model.py", "SL104", 5)]
    write("tests/conftest.py", CONFTEST)
    assert check(tmp_path, *cache) == []


def test_a_function_named_test_that_a_script_calls_is_not_a_test(write, tmp_path):
    write(
        "train.py",
        """\
        import pytest
        import torch


        @pytest.fixture
        def loader():
            torch.manual_seed(0)


        def test(loader):
            weights = torch.randn(4)
            torch.manual_seed(1)
            return weights + torch.randn(4)


        if __name__ == "__main__":
            test([1, 2])
        """,
    )
    assert check(tmp_path) == [("train.py", "SL104", 11)]
