"""Behaviour of SL201 (set_epoch), SL301/SL302 (cuDNN flags), SL000 (syntax) and the noqa comments.

Every source below starts on row 1 (the `\\` after the opening quotes); columns are 1-based.
"""

from __future__ import annotations

import io
import textwrap
import tokenize
from pathlib import Path

import libcst
import pytest
from conftest import codes_of, lint, make_linter, run_cli

from seedlint.diagnostics import Applicability


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def fixed(source: str, codes, fix: str = "safe") -> str:
    return lint(source, codes, fix=fix).source.text


def fix_bytes(data: bytes, codes, fix: str = "safe") -> str:
    """Fix raw bytes (no dedent), to keep CRLF line endings and tab indentation byte-exact."""
    return make_linter(codes).lint(Path("train.py"), data, fix).source.text


def comments(text: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT]


# ============================================================================ SL201
TRAIN_ONE_EPOCH = """\
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def train_one_epoch(loader):
    for batch in loader:
        pass


def main(dataset):
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler)
    for epoch in range(10):  # epochs
        train_one_epoch(loader)
"""


def guarded_set_epoch(creation: str, guard: str) -> str:
    """A sampler made by `creation`, then an epoch loop (row 5 on) calling `set_epoch` under `if guard:`."""
    return (
        "from torch.utils.data import DataLoader, DistributedSampler\n"
        "def main(args, dataset):\n"
        f"    {creation}\n"
        "    loader = DataLoader(dataset, sampler=sampler)\n"
        "    for epoch in range(3):\n"
        f"        if {guard}:\n"
        "            sampler.set_epoch(epoch)\n"
        "        for batch in loader:\n"
        "            pass\n"
    )


class TestSL201SamplerFactories:
    """Distilled from rosinality's stylegan2-pytorch (GPEN and other forks): `data_sampler(dataset, shuffle,
    distributed)` returns a DistributedSampler when distributed, handed inline to the DataLoader."""

    SOURCE = """\
        from torch.utils import data


        def data_sampler(dataset, shuffle{default}, distributed=False):
            if distributed:
                return data.distributed.DistributedSampler(dataset, shuffle=shuffle)
            return data.RandomSampler(dataset)


        def main(ds, epochs, distributed):
            loader = data.DataLoader(ds, batch_size=4, sampler=data_sampler(ds, {shuffle}distributed=distributed))
            for epoch in range(epochs):
                for batch in loader:
                    pass
        """

    def test_a_shuffling_sampler_from_a_factory_is_flagged_and_fixed_where_it_has_set_epoch(self):
        source = self.SOURCE.format(default="", shuffle="shuffle=True, ")
        assert findings(source, {"SL201"}) == [("SL201", 12, 5)]
        fixed = lint(source, {"SL201"}, fix="safe").source.text
        assert (
            'if hasattr(loader.sampler, "set_epoch"):\n            loader.sampler.set_epoch(epoch)'
            in fixed
        )

    @pytest.mark.parametrize(
        "default, shuffle",
        [
            ("", "shuffle=False, "),  # the caller asks for no shuffling
            ("=False", ""),  # the factory's default does
        ],
        ids=["given-False", "default-False"],
    )
    def test_a_factory_asked_not_to_shuffle_is_left_alone(self, default, shuffle):
        assert findings(self.SOURCE.format(default=default, shuffle=shuffle), {"SL201"}) == []


class TestSL201MissingSetEpoch:
    def test_epoch_loop_through_a_local_function_is_flagged_at_the_loop(self):
        (diagnostic,) = lint(TRAIN_ONE_EPOCH, {"SL201"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row, diagnostic.start.column) == ("SL201", 13, 5)
        assert (diagnostic.end.row, diagnostic.end.column) == (13, 27)  # `for epoch in range(10)`

    def test_message_says_same_order_and_training_quality_not_nondeterminism(self):
        (diagnostic,) = lint(TRAIN_ONE_EPOCH, {"SL201"}).diagnostics
        assert "same order" in diagnostic.message
        assert "training-quality bug" in diagnostic.message
        assert "not run-to-run nondeterminism" in diagnostic.message

    def test_fix_inserts_set_epoch_as_the_first_statement_of_the_loop(self):
        assert fixed(TRAIN_ONE_EPOCH, {"SL201"}).endswith(
            "    for epoch in range(10):  # epochs\n"
            "        sampler.set_epoch(epoch)\n"
            "        train_one_epoch(loader)\n"
        )

    @pytest.mark.parametrize(
        "creation",
        [
            "sampler = DistributedSampler(dataset) if args.distributed else None",
            "sampler = args.distributed and DistributedSampler(dataset)",
            "if args.distributed:\n        sampler = DistributedSampler(dataset)\n    else:\n        sampler = RandomSampler(dataset)",
        ],
        ids=["conditional-expression", "and-expression", "if-else"],
    )
    def test_a_sampler_distributed_on_some_paths_gets_set_epoch_where_it_has_it(self, creation):
        # DeepSpeed-Chat's step-1 script: RandomSampler in one process, DistributedSampler under torchrun. A bare
        # `sampler.set_epoch(epoch)` would fail where the sampler is None or a RandomSampler.
        source = (
            "from torch.utils.data import DataLoader, DistributedSampler, RandomSampler\n"
            "def main(args, dataset):\n"
            f"    {creation}\n"
            "    loader = DataLoader(dataset, sampler=sampler)\n"
            "    for epoch in range(3):\n"
            "        x = 1; y = 2\n"
            "        for batch in loader:\n"
            "            pass\n"
        )
        (diagnostic,) = lint(source, {"SL201"}).diagnostics
        assert diagnostic.start.row == 5 + creation.count("\n")
        assert diagnostic.fix.applicability is Applicability.SAFE
        after = fixed(source, {"SL201"})
        assert after == source.replace(
            "        x = 1",
            '        if hasattr(sampler, "set_epoch"):\n'
            "            sampler.set_epoch(epoch)\n        x = 1",
        )
        assert fixed(after, {"SL201"}) == after
        assert codes_of(after, {"SL201"}) == []

    @pytest.mark.parametrize(
        "source, row, column",
        [
            (
                """\
            from torch.utils.data import DataLoader, DistributedSampler
            sampler = DistributedSampler(dataset)
            loader = DataLoader(dataset, sampler=sampler)
            for epoch in range(3):
                for x in loader:
                    pass
            """,
                4,
                1,
            ),
            (
                """\
            from torch.utils.data import DistributedSampler
            sampler = DistributedSampler(dataset)
            for epoch in range(3):
                for index in sampler:
                    pass
            """,
                3,
                1,
            ),
            (
                """\
            import torch.utils.data as tud
            sampler = tud.distributed.DistributedSampler(dataset)
            loader = tud.DataLoader(dataset, batch_size=4, sampler=sampler)
            for epoch in range(3):
                for i, x in enumerate(loader):
                    pass
            """,
                4,
                1,
            ),
            (
                """\
            from torch.utils.data.distributed import DistributedSampler as DS
            from torch.utils.data import DataLoader as DL
            s = DS(dataset, num_replicas=2, rank=0, shuffle=True)
            dl = DL(dataset, 8, False, s)
            for ep in range(3):
                for x in dl:
                    pass
            """,
                5,
                1,
            ),
            (
                """\
            from torch.utils.data import DataLoader, DistributedSampler
            sampler = DistributedSampler(dataset)
            loader = DataLoader(dataset, sampler=sampler)
            epoch = 0
            while epoch < 3:
                for x in loader:
                    pass
                epoch += 1
            """,
                5,
                1,
            ),
            (
                """\
            from torch.utils.data import DataLoader, DistributedSampler
            loader = DataLoader(dataset, sampler=DistributedSampler(dataset))
            for run in range(2):
                for epoch in range(3):
                    for x in loader:
                        pass
            """,
                4,
                5,
            ),
        ],
        ids=[
            "loader",
            "sampler-itself",
            "module-alias-enumerate",
            "aliases-positional-sampler",
            "while-loop",
            "innermost-epoch-loop",
        ],
    )
    def test_shuffling_sampler_without_set_epoch_is_flagged(self, source, row, column):
        assert findings(source, {"SL201"}) == [("SL201", row, column)]

    def test_subclass_of_distributed_sampler_defined_in_the_module_is_flagged(self):
        source = """\
            from torch.utils.data import DataLoader, DistributedSampler


            class BucketSampler(DistributedSampler):
                pass


            sampler = BucketSampler(dataset)
            loader = DataLoader(dataset, sampler=sampler)
            for epoch in range(3):
                for x in loader:
                    pass
            """
        assert findings(source, {"SL201"}) == [("SL201", 10, 1)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            from torch.utils.data import DataLoader, DistributedSampler
            loader = DataLoader(dataset, sampler=DistributedSampler(dataset))
            for epoch in range(3):
                loader.sampler.set_epoch(epoch)
                for x in loader:
                    pass
            """,
            """\
            from torch.utils.data import DataLoader, DistributedSampler
            loader = DataLoader(dataset, sampler=DistributedSampler(dataset))
            for epoch in range(3):
                if hasattr(loader.sampler, "set_epoch"):
                    loader.sampler.set_epoch(epoch)
                for x in loader:
                    pass
            """,
            """\
            from torch.utils.data import DataLoader, DistributedSampler
            sampler = DistributedSampler(dataset)
            loader = DataLoader(dataset, sampler=sampler)
            for epoch in range(3):
                sampler.set_epoch(epoch)
                for x in loader:
                    pass
            """,
            """\
            from torch.utils.data import DataLoader, DistributedSampler


            def train_one_epoch(loader, epoch):
                loader.sampler.set_epoch(epoch)
                for batch in loader:
                    pass


            loader = DataLoader(dataset, sampler=DistributedSampler(dataset))
            for epoch in range(3):
                train_one_epoch(loader, epoch)
            """,
            """\
            from torch.utils.data import DataLoader, DistributedSampler
            sampler = DistributedSampler(dataset, shuffle=False)
            loader = DataLoader(dataset, sampler=sampler)
            for epoch in range(3):
                for x in loader:
                    pass
            """,
            """\
            from torch.utils.data import DataLoader, DistributedSampler
            sampler = DistributedSampler(dataset, 2, 0, False)
            loader = DataLoader(dataset, sampler=sampler)
            for epoch in range(3):
                for x in loader:
                    pass
            """,
            """\
            from torch.utils.data import DataLoader, RandomSampler
            loader = DataLoader(dataset, sampler=RandomSampler(dataset))
            for epoch in range(3):
                for x in loader:
                    pass
            """,
            """\
            from torch.utils.data import DataLoader, DistributedSampler
            loader = DataLoader(dataset, sampler=DistributedSampler(dataset))
            for x in loader:
                pass
            """,
        ],
        ids=[
            "loader.sampler.set_epoch",
            "hasattr-guarded",
            "sampler.set_epoch",
            "set_epoch-in-called-function",
            "shuffle=False",
            "shuffle-False-positional",
            "RandomSampler",
            "single-pass-no-epoch-loop",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert codes_of(source, {"SL201"}) == []

    @pytest.mark.parametrize(
        "iterated, flagged",
        [
            ("enumerate(metric_logger.log_every(loader, 10, header))", True),
            ("zip(loader, range(100))", True),
            ("range(len(loader))", False),
            ("range(len(loader.dataset))", False),
        ],
    )
    def test_a_loader_handed_to_the_wrappers_a_loop_iterates(self, iterated, flagged):
        source = f"""\
            from torch.utils.data import DataLoader, DistributedSampler
            loader = DataLoader(dataset, sampler=DistributedSampler(dataset))
            for epoch in range(3):
                for x in {iterated}:
                    pass
            """
        assert findings(source, {"SL201"}) == ([("SL201", 3, 1)] if flagged else [])

    @pytest.mark.parametrize(
        "creation",
        [
            "if True:  # args.distributed\n        sampler = DistributedSampler(dataset, num_replicas=1, rank=0)",
            "sampler = DistributedSampler(dataset)",
        ],
        ids=["if-true", "unconditional"],
    )
    def test_set_epoch_under_an_unrelated_condition_is_flagged(self, creation):
        # Distilled from training scripts whose distributed switch was hard-wired on: single-process
        # runs still use the DistributedSampler, but skip set_epoch.
        (diagnostic,) = lint(guarded_set_epoch(creation, "args.distributed"), {"SL201"}).diagnostics
        assert diagnostic.start.row == 5 + creation.count("\n")
        assert "calls `set_epoch` only when `args.distributed`" in diagnostic.message

    @pytest.mark.parametrize(
        "creation, guard",
        [
            (
                "sampler = DistributedSampler(dataset) if args.distributed else None",
                "args.distributed",
            ),
            (
                "sampler = None\n    if args.distributed:\n        sampler = DistributedSampler(dataset)",
                "args.distributed",
            ),
            ("sampler = args.distributed and DistributedSampler(dataset)", "args.distributed"),
            ("sampler = DistributedSampler(dataset)", "sampler is not None"),
            (
                "sampler = DistributedSampler(dataset)",
                "isinstance(loader.sampler, DistributedSampler)",
            ),
        ],
        ids=[
            "conditional-expression",
            "conditional-assignment",
            "and-expression",
            "guard-on-the-sampler",
            "guard-on-the-loader",
        ],
    )
    def test_set_epoch_under_the_condition_that_makes_the_sampler_is_not_flagged(
        self, creation, guard
    ):
        assert codes_of(guarded_set_epoch(creation, guard), {"SL201"}) == []

    @pytest.mark.parametrize("other", ["val_sampler", "val_loader.sampler"])
    def test_set_epoch_on_another_sampler_does_not_count(self, other):
        source = f"""\
            from torch.utils.data import DataLoader, DistributedSampler
            train_sampler = DistributedSampler(train_set)
            val_sampler = DistributedSampler(val_set)
            train_loader = DataLoader(train_set, sampler=train_sampler)
            val_loader = DataLoader(val_set, sampler=val_sampler)
            for epoch in range(3):
                {other}.set_epoch(epoch)
                for x in train_loader:
                    pass
            """
        assert findings(source, {"SL201"}) == [("SL201", 6, 1)]

    def test_fix_through_a_loader_factory_uses_loader_sampler(self):
        source = """\
            from torch.utils.data import DataLoader, DistributedSampler


            def make_loader(ds):
                sampler = DistributedSampler(ds)
                return DataLoader(ds, sampler=sampler)


            loader = make_loader(dataset)
            for epoch in range(3):
                for x in loader:
                    pass
            """
        assert fixed(source, {"SL201"}).endswith(
            "for epoch in range(3):\n"
            "    loader.sampler.set_epoch(epoch)\n"
            "    for x in loader:\n"
            "        pass\n"
        )

    def test_fix_on_self_attributes(self):
        source = """\
            from torch.utils.data import DataLoader, DistributedSampler


            class Trainer:
                def __init__(self, dataset):
                    self.sampler = DistributedSampler(dataset)
                    self.loader = DataLoader(dataset, sampler=self.sampler)

                def fit(self, epochs):
                    for epoch in range(epochs):
                        for x in self.loader:
                            pass
            """
        assert fixed(source, {"SL201"}).endswith(
            "        for epoch in range(epochs):\n"
            "            self.sampler.set_epoch(epoch)\n"
            "            for x in self.loader:\n"
            "                pass\n"
        )

    @pytest.mark.parametrize(
        "loop",
        [
            "epoch = 0\nwhile epoch < 3:\n    train(loader)\n    epoch += 1",
            "for epoch, lr in enumerate(lrs):\n    train(loader)",
            "for epoch in range(3): train(loader)",
        ],
        ids=["while", "tuple-target", "one-line-body"],
    )
    def test_fix_is_display_only_without_a_simple_for_name_loop(self, loop):
        source = (
            "from torch.utils.data import DataLoader, DistributedSampler\n"
            "loader = DataLoader(dataset, sampler=DistributedSampler(dataset))\n"
            "def train(loader):\n"
            "    for x in loader:\n"
            "        pass\n"
            f"{loop}\n"
        )
        (diagnostic,) = lint(source, {"SL201"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert fixed(source, {"SL201"}, fix="unsafe") == source

    def test_fix_keeps_crlf_and_tab_indentation(self):
        data = (
            b"from torch.utils.data import DataLoader, DistributedSampler\r\n"
            b"def main(ds):\r\n"
            b"\tsampler = DistributedSampler(ds)\r\n"
            b"\tloader = DataLoader(ds, sampler=sampler)\r\n"
            b"\tfor epoch in range(3):\r\n"
            b"\t\tfor x in loader:\r\n"
            b"\t\t\tpass\r\n"
        )
        assert fix_bytes(data, {"SL201"}) == (
            "from torch.utils.data import DataLoader, DistributedSampler\r\n"
            "def main(ds):\r\n"
            "\tsampler = DistributedSampler(ds)\r\n"
            "\tloader = DataLoader(ds, sampler=sampler)\r\n"
            "\tfor epoch in range(3):\r\n"
            "\t\tsampler.set_epoch(epoch)\r\n"
            "\t\tfor x in loader:\r\n"
            "\t\t\tpass\r\n"
        )


# ============================================================================ SL301
# SL301 asks only programs that seek reproducibility and run something benchmark mode can time
SEEDS = "import torch\ntorch.manual_seed(0)\nnet = torch.nn.Conv2d(3, 8, 3)\n"


def _sl301_concise(cwd, target: str):
    """`seedlint check --select SL301` on `target`, as a user runs it in `cwd`."""
    return run_cli(
        "check", "--isolated", "--select", "SL301", "--output-format", "concise", target, cwd=cwd
    )


class TestSL301CudnnBenchmarkEnabled:
    @pytest.mark.parametrize(
        ("default", "read", "rows"),
        [
            ("True", "config.CUDNN.BENCHMARK", ["train.py:8:1:"]),
            ("False", "config.CUDNN.BENCHMARK", []),  # off unless a run asks for it
            ("True", "cfg.CUDNN.BENCHMARK", []),  # a parameter: whose configuration is not known
        ],
    )
    def test_benchmark_mode_from_a_project_configuration_that_defaults_on(
        self, write, tmp_path, default, read, rows
    ):
        write("lib/__init__.py", "")
        write("lib/config/__init__.py", "from .default import _C as config\n")
        write(
            "lib/config/default.py", f"_C = CN()\n_C.CUDNN = CN()\n_C.CUDNN.BENCHMARK = {default}\n"
        )
        write(
            "train.py",
            "import torch\nimport torch.backends.cudnn as cudnn\n\nfrom lib.config import config\n\n"
            f"torch.manual_seed(0)\ncfg = make()\ncudnn.benchmark = {read}\n",
        )
        result = _sl301_concise(tmp_path, ".")
        assert [line.split(" ")[0] for line in result.stdout.decode().splitlines()[:-2]] == rows

    @pytest.mark.parametrize(
        ("call", "codes"),
        [
            ("setup(0)", ["SL301"]),  # the default: on
            ("setup(0, cudnn_benchmark=True)", ["SL301"]),
            ("setup(0, cudnn_benchmark=False)", []),  # a caller turns it off: a choice
            ("setup(0, args.benchmark)", []),  # a flag a user must pass
            ("setup(*args)", []),
        ],
    )
    def test_benchmark_mode_from_a_parameter_that_defaults_on(self, call, codes):
        source = f"""\
            import torch


            def setup(seed, cudnn_benchmark=True):
                torch.manual_seed(seed)
                torch.backends.cudnn.benchmark = cudnn_benchmark


            {call}
            """
        assert codes_of(source, {"SL301"}) == codes
        off = source.replace("cudnn_benchmark=True):", "cudnn_benchmark=False):")
        assert codes_of(off, {"SL301"}) == []

    @pytest.mark.parametrize(
        "source, column",
        [
            ("import torch\ntorch.backends.cudnn.benchmark = True\n", 1),
            ("import torch.backends.cudnn as cudnn\ncudnn.benchmark = True\n", 1),
            ("from torch.backends import cudnn\ncudnn.benchmark = True\n", 1),
            ("import torch\nc = torch.backends.cudnn\nc.benchmark = True\n", 1),
            ('import torch.backends.cudnn as cudnn\nsetattr(cudnn, "benchmark", True)\n', 1),
            (
                "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=True):\n    pass\n",
                6,
            ),
            ("import torch\ntorch.backends.cudnn.set_flags(_enabled=True, _benchmark=True)\n", 1),
            (
                "import torch.backends.cudnn as cudnn\ncudnn.benchmark, cudnn.deterministic = True, False\n",
                1,
            ),
        ],
        ids=[
            "full-path",
            "import-as",
            "from-import",
            "assigned-alias",
            "setattr",
            "flags",
            "set_flags",
            "tuple-assignment",
        ],
    )
    def test_benchmark_true_is_flagged(self, source, column):
        row = 3 if "c = torch" in source else 2
        assert findings(source + SEEDS, {"SL301"}) == [("SL301", row, column)]

    @pytest.mark.parametrize(
        "source",
        [
            "import torch.backends.cudnn as cudnn\ncudnn.benchmark = False\n",
            "import torch.backends.cudnn as cudnn\nsetattr(cudnn, 'benchmark', False)\n",
            "import torch\nwith torch.backends.cudnn.flags(benchmark=False):\n    pass\n",
            "import torch.backends.cudnn as cudnn\ncudnn.benchmark = args.benchmark\n",
            "import torch\ntorch.backends.cudnn.deterministic = True\n",
            "import torch\ntorch.backends.mkldnn.benchmark = True\n",
            "class Flags:\n    pass\ncudnn = Flags()\ncudnn.benchmark = True\n",
        ],
        ids=[
            "False",
            "setattr-False",
            "flags-False",
            "from-config",
            "deterministic",
            "mkldnn",
            "not-cudnn",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert codes_of(source + SEEDS, {"SL301"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            # A benchmark script: times the model, never seeds.
            "import torch\ntorch.backends.cudnn.benchmark = True\nmodel = torch.nn.Conv2d(3, 3, 3).cuda()\n"
            "x = torch.randn(8, 3, 224, 224).cuda()\nfor _ in range(10):\n    model(x)\n",
            # An export script.
            "import torch\nimport torch.backends.cudnn as cudnn\ncudnn.benchmark = True\n"
            "torch.onnx.export(model, dummy, 'model.onnx')\n",
            # Benchmark mode only when determinism is not asked for.
            "import torch\nimport torch.backends.cudnn as cudnn\ntorch.manual_seed(0)\nif args.deterministic:\n"
            "    cudnn.deterministic = True\n    cudnn.benchmark = False\nelse:\n    cudnn.benchmark = True\n",
            "import torch\ntorch.manual_seed(0)\nif args.deterministic:\n    torch.use_deterministic_algorithms(True)\n"
            "elif args.fast:\n    torch.backends.cudnn.benchmark = True\n",
        ],
        ids=[
            "unseeded-benchmark-script",
            "unseeded-export-script",
            "else-of-deterministic",
            "elif-of-deterministic",
        ],
    )
    def test_benchmark_mode_chosen_where_reproducibility_is_not_asked_for_is_not_flagged(
        self, source
    ):
        assert codes_of(source, {"SL301"}) == []

    @pytest.mark.parametrize(
        "source, row",
        [
            (
                "import torch\ntorch.backends.cudnn.benchmark = True\ntorch.use_deterministic_algorithms(True)\n"
                "net = torch.nn.Conv2d(3, 8, 3)\n",
                2,
            ),
            (
                "import torch\ntorch.backends.cudnn.deterministic = True\ntorch.backends.cudnn.benchmark = True\n"
                "net = torch.nn.Conv2d(3, 8, 3)\n",
                3,
            ),
            (
                "import torch\nfrom lightning import seed_everything\nseed_everything(42)\n"
                "if args.fast:\n    torch.backends.cudnn.benchmark = True\n",
                5,
            ),
        ],
        ids=[
            "with-deterministic-algorithms",
            "beside-cudnn-deterministic",
            "seeded-through-a-helper",
        ],
    )
    def test_benchmark_mode_in_a_program_that_asks_for_reproducibility_is_flagged(
        self, source, row
    ):
        assert findings(source, {"SL301"}) == [("SL301", row, 1 if row < 5 else 5)]

    @pytest.mark.parametrize(
        "later, flagged",
        [
            ("cudnn.benchmark = False", False),
            ("set_random_seed(0)", False),
            (
                "if args.deterministic:\n    set_random_seed(0)",
                False,
            ),  # a choice, as `if ..: off else: on`
            ("set_determinism(seed=0)", False),
            ("transformers.enable_full_determinism(0)", False),
            ("set_determinism(seed=None)", True),  # MONAI then restores the flags it found
            ("set_random_seed(0, deterministic=False)", True),  # off only under `if deterministic:`
            ("torch.use_deterministic_algorithms(True)", True),
        ],
        ids=[
            "assigned-False",
            "helper",
            "helper-in-a-branch",
            "monai",
            "enable_full_determinism",
            "monai-None",
            "helper-that-may-not",
            "deterministic-algorithms",
        ],
    )
    def test_benchmark_mode_turned_off_again_later(self, later, flagged):
        # Distilled from KPGT's train_kpgt.py: `cudnn.benchmark = True`, then its `set_random_seed` turns it off.
        source = (
            "import torch\nimport torch.backends.cudnn as cudnn\nimport transformers\n"
            "from monai.utils import set_determinism\n\n\n"
            "def set_random_seed(seed, deterministic=True):\n    torch.manual_seed(seed)\n"
            "    if deterministic:\n        cudnn.deterministic = True\n    cudnn.benchmark = False\n\n\n"
            "def seed_only(seed, deterministic=True):\n    torch.manual_seed(seed)\n"
            "    if deterministic:\n        cudnn.benchmark = False\n\n\n"
            f"cudnn.benchmark = True\n{later}\n"
        ).replace("set_random_seed(0, deterministic=False)", "seed_only(0, deterministic=False)")
        assert findings(source, {"SL301"}) == ([("SL301", 20, 1)] if flagged else [])

    @pytest.mark.parametrize(
        "source",
        [
            # turned off at the top level, before the function that turns it on is called
            "def setup():\n    cudnn.benchmark = True\n\n\ncudnn.benchmark = False\nsetup()\n",
            # turned off in a function defined after it, never called
            "cudnn.benchmark = True\n\n\ndef reset():\n    cudnn.benchmark = False\n",
        ],
        ids=["off-before-the-call", "off-in-a-definition"],
    )
    def test_a_later_definition_does_not_turn_it_off(self, source):
        assert codes_of("import torch.backends.cudnn as cudnn\n" + source + SEEDS, {"SL301"}) == [
            "SL301"
        ]

    def test_benchmark_mode_turned_on_after_a_helper_turned_it_off(self):
        source = (
            "import torch.backends.cudnn as cudnn\nfrom monai.utils import set_determinism\n"
            "set_determinism(seed=0)\ncudnn.benchmark = True\n"
        )
        assert findings(source, {"SL301"}) == [("SL301", 4, 1)]

    @pytest.mark.parametrize(
        ("model", "imports", "flagged"),
        [
            (
                "class Net(nn.Module):\n    pass\n",
                "import numpy as np\nfrom tqdm import tqdm\n",
                False,
            ),
            ("# self.conv = nn.Conv2d(3, 8, 3)\n", "", False),  # commented out: runs nothing
            ("conv = nn.Conv2d(3, 8, 3)\n", "", True),
            ("rnn = nn.LSTM(8, 8)\n", "", True),  # a cuDNN recurrent layer
            ("", "import torchvision\n", True),  # a library that builds convolutional models
            ("", "import some_model_zoo\n", True),  # a library seedlint does not know
        ],
        ids=["text-only", "commented-out", "conv", "lstm", "torchvision", "unknown-library"],
    )
    def test_a_program_that_runs_no_convolution_is_left_alone(
        self, write, tmp_path, model, imports, flagged
    ):
        write("model.py", f"from torch import nn\n{imports}\n{model}")
        write(
            "train.py",
            "import torch\nimport torch.backends.cudnn as cudnn\n\nimport model\n\n\n"
            "def main():\n    torch.manual_seed(0)\n    cudnn.benchmark = True\n\n\n"
            'if __name__ == "__main__":\n    main()\n',
        )
        result = _sl301_concise(tmp_path, "train.py")
        assert ("train.py:9:5: SL301 " in result.stdout.decode()) == flagged, result.stdout.decode()

    def test_a_helper_module_is_judged_where_it_stands(self, write, tmp_path):
        write(
            "utils.py",
            "import torch\n\n\ndef setup(seed):\n    torch.manual_seed(seed)\n"
            "    torch.backends.cudnn.benchmark = True\n",
        )
        result = _sl301_concise(tmp_path, "utils.py")
        assert result.stdout.decode().startswith("utils.py:6:5: SL301 "), result.stdout.decode()

    def test_seeding_helper_of_another_module_opens_the_gate(self, write, tmp_path):
        write("utils.py", "import torch\n\n\ndef init_seeds(seed):\n    torch.manual_seed(seed)\n")
        write(
            "train.py",
            "import torch.backends.cudnn as cudnn\nfrom utils import init_seeds\n"
            "init_seeds(0)\ncudnn.benchmark = True\nnet = torch.nn.Conv2d(3, 8, 3)\n",
        )
        result = _sl301_concise(tmp_path, "train.py")
        assert result.stdout.decode().startswith("train.py:4:1: SL301 "), result.stdout.decode()

    @pytest.mark.parametrize(
        "helper, flagged",
        [
            ("    torch.backends.cudnn.benchmark = False\n", False),
            ("    if deterministic:\n        torch.backends.cudnn.benchmark = False\n", True),
        ],
        ids=["turns-it-off", "turns-it-off-on-request"],
    )
    def test_a_helper_of_another_module_turning_it_off_later(
        self, write, tmp_path, helper, flagged
    ):
        # KPGT: scripts/train_kpgt.py sets benchmark mode on, then calls src/utils.py's set_random_seed.
        write(
            "utils.py",
            "import torch\n\n\ndef set_random_seed(seed, deterministic=False):\n"
            f"    torch.manual_seed(seed)\n{helper}",
        )
        write(
            "train.py",
            "import torch\nfrom utils import set_random_seed\n"
            "torch.backends.cudnn.benchmark = True\nset_random_seed(0)\nnet = torch.nn.Conv2d(3, 8, 3)\n",
        )
        result = _sl301_concise(tmp_path, "train.py")
        assert ("train.py:3:1: SL301 " in result.stdout.decode()) == flagged, result.stdout.decode()

    @pytest.mark.parametrize(
        "source, expected",
        [
            (
                "import torch.backends.cudnn as cudnn\ncudnn.benchmark = True  # speed\n",
                "import torch.backends.cudnn as cudnn\ncudnn.benchmark = False  # speed\n",
            ),
            (
                'import torch.backends.cudnn as cudnn\nsetattr(cudnn, "benchmark", True)\n',
                'import torch.backends.cudnn as cudnn\nsetattr(cudnn, "benchmark", False)\n',
            ),
            (
                "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=True):\n    pass\n",
                "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=False):\n    pass\n",
            ),
        ],
        ids=["assignment", "setattr", "flags"],
    )
    def test_unsafe_fix_sets_it_to_false(self, source, expected):
        assert fixed(source + SEEDS, {"SL301"}, fix="unsafe") == expected + SEEDS

    def test_tuple_assignments_are_read_element_by_element(self):
        header = (
            "import torch\nimport torch.backends.cudnn as cudnn\nnet = torch.nn.Conv2d(3, 8, 3)\n"
        )
        source = (
            header
            + "torch.manual_seed(0)\ncudnn.benchmark, cudnn.deterministic = True, False  # speed\n"
        )
        assert fixed(source, {"SL301"}, fix="unsafe") == source.replace(
            "True, False", "False, False"
        )
        choice = (
            header + "torch.manual_seed(0)\nif args.deterministic:\n"
            "    cudnn.benchmark, cudnn.deterministic = False, True\nelse:\n"
            "    cudnn.benchmark, cudnn.deterministic = True, False\n"
        )  # yolov5's init_torch_seeds
        assert findings(choice, {"SL301"}) == []
        look_alikes = (
            header
            + "torch.manual_seed(0)\ncudnn.benchmark, x = False, True\nflags = cudnn.benchmark, True\n"
        )
        assert findings(look_alikes, {"SL301"}) == []

    def test_fix_is_not_applied_as_a_safe_fix(self):
        source = "import torch\ntorch.backends.cudnn.benchmark = True\n" + SEEDS
        (diagnostic,) = lint(source, {"SL301"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.UNSAFE
        assert fixed(source, {"SL301"}, fix="safe") == source

    def test_fix_of_a_chained_assignment_keeps_the_other_target(self):
        source = (
            "import torch\ntorch.backends.cudnn.benchmark = torch.backends.cudnn.deterministic = True\n"
            + SEEDS
        )
        text = fixed(source, {"SL301"}, fix="unsafe")
        assert "benchmark = True" not in text
        module = libcst.parse_module(text)
        assignments = [
            node
            for line in module.body
            for node in getattr(line, "body", [])
            if isinstance(node, libcst.Assign)
        ]
        deterministic = [
            a.value
            for a in assignments
            if any(
                isinstance(t.target, libcst.Attribute) and t.target.attr.value == "deterministic"
                for t in a.targets
            )
        ]
        assert all(isinstance(v, libcst.Name) and v.value == "True" for v in deterministic)


# ============================================================================ SL302
class TestSL302CudnnFlagTypo:
    @pytest.mark.parametrize(
        "source, expected",
        [
            (
                "import torch\ntorch.backends.cudnn.benchmarks = False  # typo\n",
                "import torch\ntorch.backends.cudnn.benchmark = False  # typo\n",
            ),
            (
                "import torch.backends.cudnn as cudnn\ncudnn.determinstic = True\n",
                "import torch.backends.cudnn as cudnn\ncudnn.deterministic = True\n",
            ),
            (
                "from torch.backends import cudnn\ncudnn.deterministc = True\n",
                "from torch.backends import cudnn\ncudnn.deterministic = True\n",
            ),
            (
                "import torch\ntorch.backends.cudnn.enable = False\n",
                "import torch\ntorch.backends.cudnn.enabled = False\n",
            ),
            (
                "import torch\ntorch.backends.cudnn.allow_tf23 = False\n",
                "import torch\ntorch.backends.cudnn.allow_tf32 = False\n",
            ),
        ],
        ids=["benchmarks", "determinstic", "deterministc", "enable", "allow_tf23"],
    )
    def test_typo_is_flagged_and_fixed(self, source, expected):
        assert findings(source, {"SL302"}) == [("SL302", 2, 1)]
        assert fixed(source, {"SL302"}) == expected

    def test_message_names_the_wrong_flag_and_the_suggestion(self):
        (diagnostic,) = lint(
            "import torch\ntorch.backends.cudnn.benchmarks = True\n", {"SL302"}
        ).diagnostics
        assert "`benchmarks`" in diagnostic.message
        assert "`benchmark`" in diagnostic.help

    def test_attribute_far_from_every_flag_is_flagged_without_a_fix(self):
        source = "import torch\ntorch.backends.cudnn.fastest = True\n"
        (diagnostic,) = lint(source, {"SL302"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row, diagnostic.start.column) == ("SL302", 2, 1)
        assert diagnostic.fix is None

    @pytest.mark.parametrize(
        "source",
        [
            "import torch\ntorch.backends.cudnn.enabled = False\n",
            "import torch.backends.cudnn as cudnn\ncudnn.deterministic = True\ncudnn.benchmark = False\n"
            "cudnn.allow_tf32 = False\ncudnn.benchmark_limit = 10\n",
            "import torch\ntorch.backends.cudnn._private = 1\n",
            "import torch\ntorch.backends.cuda.benchmarks = True\n",
            "import torch\ntorch.backends.mps.determinstic = True\n",
            "import torch\nx = torch.backends.cudnn.benchmarks\n",
            "class Flags:\n    pass\ncudnn = Flags()\ncudnn.benchmarks = True\n",
        ],
        ids=[
            "enabled-False",
            "real-flags",
            "private",
            "other-backend",
            "mps",
            "read-not-assigned",
            "not-cudnn",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert codes_of(source, {"SL302"}) == []


# ============================================================================ SL000
class TestSL000InvalidSyntax:
    SOURCE = "import torch\ntorch.manual_seed(0)\nx = 1 2\n"

    def test_one_finding_on_the_error_row_and_no_other_rule(self):
        assert [(d.code, d.start.row) for d in lint(self.SOURCE).diagnostics] == [("SL000", 3)]

    def test_message_says_syntax_error(self):
        (diagnostic,) = lint(self.SOURCE).diagnostics
        assert diagnostic.message.startswith("SyntaxError")
        assert diagnostic.fix is None

    def test_reported_even_when_only_other_rules_are_selected(self):
        assert codes_of(self.SOURCE, {"SL104"}) == ["SL000"]

    @pytest.mark.parametrize(
        "source",
        [
            "import torch\ntorch.manual_seed(0)\nx = 1 2\n",
            "import torch\ntorch.manual_seed(0)\nx = = 1\n",
            "import torch\ntorch.manual_seed(0) )\n",
            'import torch\ntorch.manual_seed(0)\nx = "abc\n',
        ],
        ids=["two-values", "double-equals", "unmatched-paren", "unterminated-string"],
    )
    def test_position_is_where_python_reports_the_error(self, source):
        with pytest.raises(SyntaxError) as error:
            compile(source, "train.py", "exec")
        (diagnostic,) = lint(source).diagnostics
        assert (diagnostic.start.row, diagnostic.start.column) == (
            error.value.lineno,
            error.value.offset,
        )


# ============================================================================ noqa
DRAW_BEFORE_SEED = "import torch\nx = torch.randn(3){comment}\ntorch.manual_seed(0)\n"


class TestSuppressions:
    @pytest.mark.parametrize(
        "comment",
        [
            "  # noqa: SL104",
            "  # noqa",
            "  # NOQA:SL104",
            "  # noqa: SL101, SL104",
            "  # noqa: sl104",
        ],
    )
    def test_line_noqa_suppresses(self, comment):
        assert codes_of(DRAW_BEFORE_SEED.format(comment=comment), {"SL104"}) == []

    @pytest.mark.parametrize(
        "comment", ["  # noqa: SL105", "  # noqa: SL10", "  # a noqa-less comment"]
    )
    def test_line_noqa_for_other_codes_does_not_suppress(self, comment):
        assert codes_of(DRAW_BEFORE_SEED.format(comment=comment), {"SL104"}) == ["SL104"]

    def test_noqa_on_another_line_does_not_suppress(self):
        source = "import torch\nx = torch.randn(3)\ntorch.manual_seed(0)  # noqa\n"
        assert findings(source, {"SL104"}) == [("SL104", 2, 5)]

    @pytest.mark.parametrize(
        "header",
        ["# seedlint: noqa\n", "# seedlint: noqa: SL104\n", "# seedlint: noqa: SL101, SL104\n"],
    )
    def test_file_level_noqa_suppresses(self, header):
        assert codes_of(header + DRAW_BEFORE_SEED.format(comment=""), {"SL104"}) == []

    def test_file_level_noqa_with_codes_keeps_the_other_rules(self):
        source = (
            "# seedlint: noqa: SL104\nimport torch\nimport numpy as np\nx = torch.randn(3)\n"
            "torch.manual_seed(0)\ny = np.random.rand(3)\n"
        )
        assert findings(source, {"SL104", "SL105"}) == [("SL105", 6, 5)]

    def test_file_level_noqa_must_be_on_its_own_line(self):
        source = "x = 1  # seedlint: noqa\n" + DRAW_BEFORE_SEED.format(comment="")
        assert codes_of(source, {"SL104"}) == ["SL104"]

    def test_suppressed_finding_is_not_fixed(self):
        source = "import torch\ntorch.backends.cudnn.benchmarks = True  # noqa: SL302\n"
        assert fixed(source, {"SL302"}) == source


# ====================================================================== every fix
FIXABLE = [
    ("SL201", "safe", TRAIN_ONE_EPOCH),
    (
        "SL301",
        "unsafe",
        """\
import torch.backends.cudnn as cudnn
from torch import nn
# speed
cudnn.benchmark = True  # autotune
cudnn.deterministic = True
net = nn.Conv2d(3, 8, 3)
""",
    ),
    (
        "SL302",
        "safe",
        """\
import torch
# flags
torch.backends.cudnn.determinstic = True  # typo
torch.backends.cudnn.benchmarks = False  # typo too
""",
    ),
]


@pytest.mark.parametrize("code, mode, source", FIXABLE, ids=[code for code, _, _ in FIXABLE])
class TestFixProperties:
    def test_fixed_source_has_no_finding_of_the_rule(self, code, mode, source):
        result = lint(source, {code}, fix=mode)
        assert result.source.text != textwrap.dedent(source)
        assert result.diagnostics == []
        assert codes_of(result.source.text, {code}) == []

    def test_fixing_again_changes_nothing(self, code, mode, source):
        once = fixed(source, {code}, fix=mode)
        assert fixed(once, {code}, fix=mode) == once

    def test_comments_survive(self, code, mode, source):
        assert comments(fixed(source, {code}, fix=mode)) == comments(source)

    def test_result_parses(self, code, mode, source):
        libcst.parse_module(fixed(source, {code}, fix=mode))


# ============================================================================ SL100
class TestSL100UnusedNoqa:
    DEFAULT = None  # the default rule set, with SL100 in it

    @pytest.mark.parametrize(
        "line, row, column",
        [
            ("model = torch.nn.Linear(2, 2)  # noqa: SL104", 3, 32),
            ("model = torch.nn.Linear(2, 2)  # NOQA:SL104,SL105", 3, 32),
            ("x = 1  # noqa: SL999", 3, 8),
            ("x = 1  # Noqa: E501, SL104", 3, 8),
        ],
        ids=["fixed-finding", "upper-case-no-space", "unknown-code", "any-case-after-another"],
    )
    def test_a_code_that_suppressed_nothing_is_flagged(self, line, row, column):
        source = f"import torch\ntorch.manual_seed(0)\n{line}\n"
        assert [f for f in findings(source, self.DEFAULT) if f[0] == "SL100"] == [
            ("SL100", row, column)
        ]

    @pytest.mark.parametrize(
        "source",
        [
            "import torch\nmodel = torch.nn.Linear(2, 2)  # noqa: SL104\ntorch.manual_seed(0)\n",
            "import torch\nmodel = torch.nn.Linear(2, 2)  # noqa\ntorch.manual_seed(0)\n",
            "import torch\nx = 1  # noqa\n",
            "import torch\nx = 1  # noqa: E501, F401\n",
            "import torch\nx = 1  # noqa: SLOT000\n",  # Distilled from torch's distributed_c10d.py (flake8-slots)
            'import torch\ntext = "# noqa: SL104"\n',
            "# seedlint: noqa: SL104\nimport torch\n",
        ],
        ids=[
            "used",
            "bare-used",
            "bare-unused",
            "other-tools",
            "flake8-slots",
            "inside-a-string",
            "file-level",
        ],
    )
    def test_used_bare_foreign_and_string_directives_are_not_flagged(self, source):
        assert "SL100" not in codes_of(source, self.DEFAULT)

    def test_codes_of_rules_not_enabled_are_not_judged(self):
        source = "import torch\ntorch.manual_seed(0)\nx = 1  # noqa: SL104\n"
        assert codes_of(source, {"SL100", "SL101"}) == []
        assert codes_of(source, {"SL100", "SL104"}) == ["SL100"]

    @pytest.mark.parametrize(
        "line, expected",
        [
            ("x = 1  # noqa: SL104", "x = 1"),
            ("x = 1  # noqa: SL104, E501", "x = 1  # noqa: E501"),
            ("x = 1  # noqa: E501,SL104", "x = 1  # noqa: E501"),
        ],
        ids=["whole-comment", "keeps-other-codes", "keeps-leading-code"],
    )
    def test_fix_removes_only_the_unused_codes(self, line, expected):
        source = f"import torch\ntorch.manual_seed(0)\n{line}\n"
        text = fixed(source, self.DEFAULT)
        assert text == f"import torch\ntorch.manual_seed(0)\n{expected}\n"
        assert fixed(text, self.DEFAULT) == text

    def test_fix_is_display_only_when_the_comment_says_more(self):
        source = "import torch\ntorch.manual_seed(0)\nx = 1  # noqa: SL104 kept for the paper's numbers\n"
        (diagnostic,) = [d for d in lint(source).diagnostics if d.code == "SL100"]
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
