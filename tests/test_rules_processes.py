"""Behaviour of SL401 (functional dropout in modules) and SL108 (seeding lost in spawned processes).

Every source below starts on row 1 (the `\\` after the opening quotes); columns are 1-based.
"""

from __future__ import annotations

import libcst
import pytest
from conftest import lint, run_cli

from seedlint.analysis.context import AnalysisSettings
from seedlint.diagnostics import Applicability


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def fixed(source: str, codes, fix: str = "safe") -> str:
    return lint(source, codes, fix=fix).source.text


# ============================================================================ SL401
MODULE_HEADER = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


"""


def in_forward(body: str, header: str = MODULE_HEADER, base: str = "nn.Module") -> str:
    """A module whose `forward(self, x)` runs `body`, starting on row `header.count("\\n") + 3` (8 by default)."""
    return f"{header}class Net({base}):\n    def forward(self, x):\n        {body}\n"


class TestSL401FunctionalDropoutTraining:
    @pytest.mark.parametrize(
        "body",
        [
            "return F.dropout(x)",
            "return F.dropout(x, 0.5)",
            "return F.dropout(x, p=0.1, inplace=False)",
            "return F.dropout1d(x, 0.2)",
            "return F.dropout2d(x)",
            "return F.dropout3d(x)",
            "return torch.nn.functional.dropout(x, 0.5)",
        ],
    )
    def test_functional_dropout_without_training_in_forward_is_flagged(self, body):
        assert findings(in_forward(body), {"SL401"}) == [("SL401", 8, 16)]

    @pytest.mark.parametrize(
        "header",
        [
            "from torch import nn\nfrom torch.nn import functional as F\n\n\n",
            "import torch\nfrom torch import nn\nimport torch.nn.functional as F\n\n\n",
            "import torch.nn\nimport torch.nn.functional as F\nnn = torch.nn\n\n",
        ],
        ids=["from-torch-import-nn", "nn-from-torch", "alias-assignment"],
    )
    def test_import_spellings_resolve(self, header):
        row = header.count("\n") + 3
        assert findings(in_forward("return F.dropout(x, 0.5)", header), {"SL401"}) == [
            ("SL401", row, 16)
        ]

    def test_from_import_with_alias_resolves(self):
        header = "import torch.nn as nn\nfrom torch.nn.functional import dropout as drop\n\n\n"
        source = in_forward("return drop(x, 0.5)", header)
        assert findings(source, {"SL401"}) == [("SL401", 7, 16)]

    def test_subclass_of_a_local_module_base_and_any_method_are_flagged(self):
        source = """\
            import torch.nn.functional as F
            from torch import nn


            class Block(nn.Module):
                pass


            class Net(Block):
                def _mix(self, x):
                    return F.dropout(x, 0.3) + x
            """
        assert findings(source, {"SL401"}) == [("SL401", 11, 16)]

    def test_message_says_it_keeps_dropping_after_eval(self):
        (diagnostic,) = lint(in_forward("return F.dropout(x)"), {"SL401"}).diagnostics
        assert "`F.dropout` without `training=` defaults to `training=True`" in diagnostic.message
        assert "after `model.eval()`" in diagnostic.message
        assert diagnostic.fix.applicability is Applicability.SAFE

    @pytest.mark.parametrize(
        "body",
        [
            "return F.dropout(x, 0.5, training=self.training)",
            "return F.dropout(x, 0.5, self.training)",
            "return F.dropout(x, training=False)",
            "return F.dropout(x, 0.5, True)",
            "return F.dropout(x, training=self.mc)",
            "return F.dropout(*args)",
            "return F.dropout(x, **options)",
            "return torch.dropout(x, 0.5, True)",
            "return nn.Dropout(0.5)(x)",
            "return F.relu(x)",
        ],
    )
    def test_training_passed_or_not_functional_dropout_is_not_flagged(self, body):
        assert findings(in_forward(body), {"SL401"}) == []

    @pytest.mark.parametrize(
        "body",
        [
            "return F.dropout(x, self.dropout_p if self.training else 0.0)",  # flash-attn's attention dropout
            "return F.dropout(x, p=self.p * self.training)",
            "return F.dropout(x, 0.1) if self.training else x",
            "if self.training:\n            x = F.dropout(x, self.p)\n        return x",
            "if self.training and self.p > 0:\n            return F.dropout(x, self.p)\n        return x",
            "if not self.training:\n            return x\n        y = x * 2\n        return F.dropout(y, 0.1)",
            "if not self.training: return x\n        return F.dropout(x, 0.1)",
        ],
        ids=[
            "p-reads-training",
            "p-times-training",
            "if-expression",
            "if-training",
            "if-training-and",
            "early-return",
            "early-return-one-line",
        ],
    )
    def test_dropout_that_already_follows_training_mode_is_not_flagged(self, body):
        assert findings(in_forward(body), {"SL401"}) == []

    def test_dropout_in_sampling_code_run_without_grad_is_meant_to_draw(self):
        source = MODULE_HEADER + (
            "class Diffusion(nn.Module):\n"
            "    @torch.no_grad()\n"
            "    def p_sample(self, noise, noise_dropout=0.0):\n"
            "        if noise_dropout > 0.0:\n"
            "            noise = F.dropout(noise, p=noise_dropout)\n"
            "        return noise\n"
            "\n"
            "    def forward(self, x):\n"
            "        return F.dropout(x, 0.1)\n"
        )
        assert findings(source, {"SL401"}) == [("SL401", 14, 16)]

    @pytest.mark.parametrize(
        "body, row, column",
        [
            ("if self.use_dropout:\n            x = F.dropout(x, 0.1)\n        return x", 9, 17),
            ("y = F.dropout(x, 0.2) if self.enabled else x\n        return y", 8, 13),
            ("if self.training:\n            x = x * 2\n        return F.dropout(x, 0.1)", 10, 16),
            (
                "return F.alpha_dropout(x, 0.1) if self.training else x",
                8,
                16,
            ),  # never drops, guard or not
        ],
        ids=["other-flag", "other-if-expression", "after-the-if", "alpha-dropout-under-a-guard"],
    )
    def test_look_alike_guards_do_not_hide_dropout(self, body, row, column):
        assert findings(in_forward(body), {"SL401"}) == [("SL401", row, column)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch.nn.functional as F


            def augment(x):
                return F.dropout(x, 0.1)
            """,
            """\
            import torch.nn.functional as F


            class Augment:
                def __call__(self, x):
                    return F.dropout(x, 0.1)
            """,
            """\
            import torch.nn.functional as F
            from torch import nn


            class Net(nn.Module):
                def forward(self, x):
                    def inner(y):
                        return F.dropout(y)
                    return inner(x)
            """,
            """\
            import keras
            from torch import nn


            class Net(nn.Module):
                def forward(self, x):
                    return keras.layers.dropout(x)
            """,
            """\
            from torch import nn


            class Net(nn.Module):
                def forward(self, x):
                    return self.dropout(x)

                def dropout(self, x):
                    return x
            """,
            """\
            import tensorflow.nn as F
            from torch import nn


            class Net(nn.Module):
                def forward(self, x):
                    return F.dropout(x, 0.5)
            """,
        ],
        ids=[
            "plain-function",
            "non-module-class",
            "nested-function",
            "other-library",
            "own-method",
            "tensorflow-alias",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert findings(source, {"SL401"}) == []

    @pytest.mark.parametrize(
        "body, expected",
        [
            ("return F.dropout(x)", "return F.dropout(x, training=self.training)"),
            (
                "return F.dropout(x, 0.5)  # keep",
                "return F.dropout(x, 0.5, training=self.training)  # keep",
            ),
            ("return F.dropout(x, p=0.5,)", "return F.dropout(x, p=0.5, training=self.training,)"),
            (
                "return F.dropout(x , p = 0.5 )",
                "return F.dropout(x , p = 0.5, training=self.training )",
            ),
        ],
        ids=["one-argument", "comment", "trailing-comma", "spaces"],
    )
    def test_fix_appends_the_keyword(self, body, expected):
        assert fixed(in_forward(body), {"SL401"}).endswith(f"        {expected}\n")

    def test_fix_with_one_argument_per_line_adds_a_line(self):
        source = in_forward(
            "return F.dropout(\n            x,\n            p=0.5,  # rate\n        )"
        )
        assert fixed(source, {"SL401"}).endswith(
            "        return F.dropout(\n"
            "            x,\n"
            "            p=0.5,  # rate\n"
            "            training=self.training,\n"
            "        )\n"
        )

    def test_fix_with_arguments_over_lines_without_trailing_comma(self):
        source = in_forward("return F.dropout(x,\n                         0.5)")
        assert fixed(source, {"SL401"}).endswith(
            "        return F.dropout(x,\n                         0.5, training=self.training)\n"
        )

    def test_fix_keeps_crlf_and_is_idempotent_and_parses(self):
        source = in_forward(
            "return F.dropout(\n            x,\n            0.5,\n        )"
        ).replace("\n", "\r\n")
        once = fixed(source, {"SL401"})
        assert "            training=self.training,\r\n" in once
        libcst.parse_module(once)
        assert fixed(once, {"SL401"}) == once
        assert findings(once, {"SL401"}) == []

    def test_fix_uses_the_name_the_method_gives_its_instance(self):
        source = in_forward("return F.dropout(x)").replace("forward(self, x)", "forward(this, x)")
        assert fixed(source, {"SL401"}).endswith(
            "        return F.dropout(x, training=this.training)\n"
        )

    @pytest.mark.parametrize("decorator", ["staticmethod", "classmethod"])
    def test_static_and_class_methods_are_flagged_with_a_display_only_fix(self, decorator):
        source = f"""\
            import torch.nn.functional as F
            from torch import nn


            class Net(nn.Module):
                @{decorator}
                def noise(cls, x):
                    return F.dropout(x)
            """
        (diagnostic,) = lint(source, {"SL401"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert fixed(source, {"SL401"}, fix="unsafe") == lint(source, {"SL401"}).source.text

    @pytest.mark.parametrize("name", ["alpha_dropout", "feature_alpha_dropout"])
    def test_alpha_dropout_never_drops_and_its_fix_is_unsafe(self, name):
        source = in_forward(f"return F.{name}(x, 0.1)")
        (diagnostic,) = lint(source, {"SL401"}).diagnostics
        assert "defaults to `training=False`, so it never drops" in diagnostic.message
        assert diagnostic.fix.applicability is Applicability.UNSAFE
        assert fixed(source, {"SL401"}) == lint(source, {"SL401"}).source.text
        assert fixed(source, {"SL401"}, fix="unsafe").endswith(
            f"F.{name}(x, 0.1, training=self.training)\n"
        )

    def test_lightning_module_is_a_module(self):
        source = in_forward(
            "return F.dropout(x)",
            "import lightning as L\nimport torch.nn.functional as F\n\n\n\n",
            base="L.LightningModule",
        )
        assert findings(source, {"SL401"}) == [("SL401", 8, 16)]


# ============================================================================ SL108
def spawning(
    launch: str,
    worker_body: str = "model = nn.Linear(4, 1)",
    seed: str = "torch.manual_seed(0)",
    imports: str = "",
) -> str:
    """A script that seeds, then runs `launch` (reported on row 14) with target `worker`."""
    return (
        "import multiprocessing\n"
        "import torch\n"
        "import torch.multiprocessing as mp\n"
        "import torch.nn as nn\n"
        f"{imports or chr(10)}"
        "\n"
        "\n"
        "def worker(rank=0):\n"
        f"    {worker_body}\n"
        "\n"
        "\n"
        "if __name__ == '__main__':\n"
        f"    {seed}\n"
        f"    {launch}\n"
    )


def seeding_parent(worker_seeding: str, launch: str) -> str:
    """`main` seeds torch and NumPy (rows 8-9), then runs `launch` (row 10 on) with target `train`."""
    return (
        "import numpy as np\n"
        "import torch\n"
        "import torch.multiprocessing as mp\n"
        "def train(rank, seed):\n"
        f"    {worker_seeding}\n"
        "    model = torch.nn.Linear(4, 4)\n"
        "def main(args):\n"
        "    torch.manual_seed(args.seed)\n"
        "    np.random.seed(args.seed)\n"
        f"    {launch}\n"
    )


class TestSL108SeedLostInSpawn:
    @pytest.mark.parametrize(
        "launch",
        [
            "mp.spawn(worker, nprocs=2)",
            "mp.spawn(fn=worker, nprocs=2)",
            "mp.spawn(worker, (), 2, True, False, 'forkserver')",
            "mp.start_processes(worker, nprocs=2, start_method='forkserver')",
            "mp.start_processes(worker, nprocs=2)",
            "multiprocessing.get_context('spawn').Process(target=worker).start()",
            "mp.get_context('forkserver').Process(None, worker).start()",
        ],
    )
    def test_spawning_launchers_are_flagged(self, launch):
        assert findings(spawning(launch), {"SL108"}) == [("SL108", 14, 5)]

    def test_from_imports_resolve(self):
        source = spawning(
            "spawn(worker, nprocs=2)", imports="from torch.multiprocessing import spawn\n"
        )
        assert findings(source, {"SL108"}) == [("SL108", 14, 5)]

    def test_context_through_a_variable_is_flagged(self):
        source = spawning(
            "ctx = multiprocessing.get_context('spawn'); ctx.Process(target=worker).start()"
        )
        assert findings(source, {"SL108"}) == [("SL108", 14, 49)]

    def test_global_start_method_then_plain_process_is_flagged(self):
        source = spawning(
            "multiprocessing.set_start_method('spawn'); mp.Process(target=worker).start()"
        )
        assert findings(source, {"SL108"}) == [("SL108", 14, 48)]

    def test_elastic_launch_is_flagged(self):
        source = spawning(
            "elastic_launch(LaunchConfig(1, 1, 2), worker)()",
            imports="from torch.distributed.launcher.api import LaunchConfig, elastic_launch\n",
        )
        assert findings(source, {"SL108"}) == [("SL108", 14, 5)]

    def test_message_names_the_target_and_the_start_method(self):
        (diagnostic,) = lint(spawning("mp.spawn(worker, nprocs=2)"), {"SL108"}).diagnostics
        assert (
            "`mp.spawn` runs `worker` in a fresh interpreter (spawn start method)"
            in diagnostic.message
        )
        assert "`worker` never seeds" in diagnostic.message
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert fixed(spawning("mp.spawn(worker, nprocs=2)"), {"SL108"}) == spawning(
            "mp.spawn(worker, nprocs=2)"
        )

    def test_seeding_through_a_helper_in_main_then_spawning_is_flagged(self):
        source = """\
            import torch
            import torch.multiprocessing as mp


            def set_seed(seed):
                torch.manual_seed(seed)


            def worker(rank):
                return torch.randn(3)


            def main():
                set_seed(0)
                mp.spawn(worker, nprocs=2)


            if __name__ == "__main__":
                main()
            """
        assert findings(source, {"SL108"}) == [("SL108", 15, 5)]

    @pytest.mark.parametrize(
        "top_level",
        [
            "torch.manual_seed(args.seed)",
            "if args.seed is not None:\n    torch.manual_seed(args.seed)",
            "set_seed(args.seed)",
        ],
        ids=["seeding-call", "under-if-args-seed", "through-a-local-helper"],
    )
    def test_seeding_at_the_top_level_of_the_spawning_script_reaches_the_children(self, top_level):
        # A spawn child re-imports the main module as `__mp_main__` and so re-runs its top level.
        source = (
            "import argparse\n"
            "import torch\n"
            "import torch.multiprocessing as mp\n"
            "def set_seed(seed):\n"
            "    torch.manual_seed(seed)\n"
            "parser = argparse.ArgumentParser()\n"
            "args = parser.parse_args()\n"
            f"{top_level}\n"
            "def run_worker(rank, args):\n"
            "    return torch.nn.Linear(4, 4)\n"
            "def main():\n"
            "    mp.spawn(run_worker, args=(args,), nprocs=2)\n"
            "if __name__ == '__main__':\n"
            "    main()\n"
        )
        assert findings(source, {"SL108"}) == []

    @pytest.mark.parametrize("guard", ["__name__ == '__main__'", '"__main__" == __name__'])
    def test_seeding_in_the_main_block_does_not_reach_the_children(self, guard):
        # The `__main__` block is what a child does not re-run.
        source = (
            "import torch\n"
            "import torch.multiprocessing as mp\n"
            "def run_worker(rank):\n"
            "    return torch.nn.Linear(4, 4)\n"
            f"if {guard}:\n"
            "    torch.manual_seed(0)\n"
            "    mp.spawn(run_worker, nprocs=2)\n"
        )
        assert findings(source, {"SL108"}) == [("SL108", 7, 5)]

    @pytest.mark.parametrize(
        "worker_seeding, lost",
        [
            ("torch.cuda.manual_seed(seed)", "torch CPU generator"),
            ("torch.cuda.manual_seed_all(seed)", "torch CPU generator"),
            ("torch.manual_seed(seed)\n    x = np.random.rand(2)", "NumPy global generator"),
        ],
        ids=["cuda-only", "cuda-all-only", "torch-only-drawing-numpy"],
    )
    def test_a_target_that_seeds_less_than_the_parent_is_flagged(self, worker_seeding, lost):
        launch = (
            "if args.distributed:\n        mp.spawn(train, args=(args.seed,), nprocs=2)\n"
            "    else:\n        train(0, args.seed)"
        )
        (diagnostic,) = lint(seeding_parent(worker_seeding, launch), {"SL108"}).diagnostics
        assert (diagnostic.start.row, diagnostic.start.column) == (
            11 + worker_seeding.count("\n"),
            9,
        )
        assert (
            f"`train` does not seed the {lost} that the seeding here covers" in diagnostic.message
        )

    @pytest.mark.parametrize(
        "worker_seeding",
        [
            "torch.manual_seed(seed)",  # NumPy unseeded in the child, but nothing there draws from it
            "torch.manual_seed(seed)\n    torch.cuda.manual_seed_all(seed)",
        ],
        ids=["numpy-not-drawn", "cpu-and-cuda"],
    )
    def test_a_target_that_seeds_what_it_uses_is_not_flagged(self, worker_seeding):
        source = seeding_parent(worker_seeding, "mp.spawn(train, args=(args.seed,), nprocs=2)")
        assert findings(source, {"SL108"}) == []

    @pytest.mark.parametrize(
        "launch, worker_body, seed",
        [
            ("mp.spawn(worker, nprocs=2)", "torch.manual_seed(rank)", "torch.manual_seed(0)"),
            ("mp.spawn(worker, nprocs=2)", "seed_everything(rank)", "torch.manual_seed(0)"),
            ("mp.spawn(worker, nprocs=2)", "torch.seed()", "torch.manual_seed(0)"),
            ("mp.spawn(worker, nprocs=2, start_method='fork')", "pass", "torch.manual_seed(0)"),
            (
                "multiprocessing.get_context('fork').Process(target=worker).start()",
                "pass",
                "torch.manual_seed(0)",
            ),
            (
                "multiprocessing.get_context().Process(target=worker).start()",
                "pass",
                "torch.manual_seed(0)",
            ),
            (
                "multiprocessing.get_context(method).Process(target=worker).start()",
                "pass",
                "torch.manual_seed(0)",
            ),
            ("mp.spawn(worker, start_method=method)", "pass", "torch.manual_seed(0)"),
            ("multiprocessing.Process(target=worker).start()", "pass", "torch.manual_seed(0)"),
            ("mp.spawn(imported_worker, nprocs=2)", "pass", "torch.manual_seed(0)"),
            ("mp.spawn(lambda rank: None, nprocs=2)", "pass", "torch.manual_seed(0)"),
            ("mp.spawn(worker, nprocs=2)", "pass", "print('no seeding here')"),
            ("mp.spawn(worker, nprocs=2)", "pass", "torch.seed()"),
            ("elastic_launch(LaunchConfig(1, 1, 2), 'train.py')()", "pass", "torch.manual_seed(0)"),
            (
                "elastic_launch(LaunchConfig(1, 1, 2, start_method='fork'), worker)()",
                "pass",
                "torch.manual_seed(0)",
            ),
            ("other.spawn(worker)", "pass", "torch.manual_seed(0)"),
        ],
        ids=[
            "target-seeds",
            "target-seeds-through-known-helper",
            "target-reseeds-randomly",
            "fork-start-method",
            "fork-context",
            "default-context",
            "variable-context",
            "variable-start-method",
            "plain-process",
            "imported-target",
            "lambda-target",
            "parent-never-seeds",
            "parent-seeds-randomly",
            "command-string",
            "elastic-fork",
            "other-library-spawn",
        ],
    )
    def test_not_flagged(self, launch, worker_body, seed):
        imports = (
            "from lightning import seed_everything\n"
            "from torch.distributed.launcher.api import LaunchConfig, elastic_launch\n"
            "from mylib import imported_worker, other\n"
        )
        assert findings(spawning(launch, worker_body, seed, imports), {"SL108"}) == []

    def test_target_seeding_through_a_local_helper_is_not_flagged(self):
        source = """\
            import torch
            import torch.multiprocessing as mp


            def set_seed(seed):
                torch.manual_seed(seed)


            def worker(rank):
                set_seed(rank)
                return torch.randn(3)


            if __name__ == "__main__":
                set_seed(0)
                mp.spawn(worker, nprocs=2)
            """
        assert findings(source, {"SL108"}) == []

    def test_target_also_called_directly_and_seeding_is_not_flagged(self):
        source = """\
            import torch
            import torch.multiprocessing as mp


            def worker(rank):
                torch.manual_seed(rank)


            def main(world_size):
                torch.manual_seed(0)
                if world_size == 1:
                    worker(0)
                else:
                    mp.spawn(worker, nprocs=world_size)
            """
        assert findings(source, {"SL108"}) == []

    def test_target_seeding_through_a_configured_seed_function_is_not_flagged(self):
        source = spawning(
            "mp.spawn(worker, nprocs=2)",
            "fix_seeds(rank)",
            "fix_seeds(0)",
            imports="from myproj.utils import fix_seeds\n",
        )
        settings = AnalysisSettings(seed_functions={"myproj.utils.fix_seeds": frozenset({"torch"})})
        assert findings(source, {"SL108"}, settings=settings) == []

    @pytest.mark.parametrize(
        "main_body",
        [
            "mp.spawn(worker, nprocs=2)\n    torch.manual_seed(0)",
            "if fast:\n        torch.manual_seed(0)\n    else:\n        mp.spawn(worker, nprocs=2)",
        ],
        ids=["seeded-after-spawning", "exclusive-branches"],
    )
    def test_spawning_not_after_seeding_is_not_flagged(self, main_body):
        source = (
            "import torch\n"
            "import torch.multiprocessing as mp\n\n\n"
            "def worker(rank):\n"
            "    return torch.randn(3)\n\n\n"
            "def main(fast):\n"
            f"    {main_body}\n"
        )
        assert findings(source, {"SL108"}) == []

    def test_seed_in_a_loop_header_then_spawn_in_the_body_is_flagged(self):
        source = (
            "import torch\n"
            "import torch.multiprocessing as mp\n\n\n"
            "def worker(rank):\n"
            "    return torch.randn(3)\n\n\n"
            "def main():\n"
            "    for run in range(torch.manual_seed(0).initial_seed()):\n"
            "        mp.spawn(worker, nprocs=2)\n"
        )
        assert findings(source, {"SL108"}) == [("SL108", 11, 9)]

    def test_set_start_method_fork_elsewhere_leaves_plain_process_alone(self):
        source = spawning(
            "multiprocessing.set_start_method('spawn'); mp.Process(target=worker).start()",
            imports="multiprocessing.set_start_method('fork', force=True)\n",
        )
        assert findings(source, {"SL108"}) == []

    def test_target_seeding_through_a_helper_of_another_module_is_not_flagged(
        self, write, tmp_path
    ):
        write("utils.py", "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n")
        script = (
            "import torch.multiprocessing as mp\n"
            "from utils import set_seed\n\n\n"
            "def worker(rank):\n"
            "    {}\n\n\n"
            "if __name__ == '__main__':\n"
            "    set_seed(0)\n"
            "    mp.spawn(worker, nprocs=2)\n"
        )
        write("train.py", script.format("set_seed(rank)"))
        write("unseeded.py", script.format("pass"))
        result = run_cli(
            "check",
            "--isolated",
            "--select",
            "SL108",
            "--output-format",
            "concise",
            ".",
            cwd=tmp_path,
        )
        assert result.stdout.decode().splitlines()[0].startswith("unseeded.py:11:5: SL108 ")
        assert "train.py" not in result.stdout.decode()
