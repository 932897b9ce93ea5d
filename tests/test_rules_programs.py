"""Issue 26: rules about whole training programs. SL112 (a training program that seeds nothing)."""

from __future__ import annotations

import textwrap

import pytest
from conftest import codes_of, lint, run_cli

from seedlint.diagnostics import Applicability

TRAINING = """\
    import argparse

    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default=0.1)
        args = parser.parse_args()
        data = TensorDataset(torch.zeros(64, 4), torch.zeros(64, dtype=torch.long))
        loader = DataLoader(data, batch_size=8, shuffle=True)
        model = nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.5))
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
    """


class TestSL112TrainingNeverSeeds:
    def test_a_training_script_that_seeds_nothing_is_flagged_once_at_its_backward_pass(self):
        (finding,) = lint(TRAINING, {"SL112"}).diagnostics
        assert (finding.code, finding.start.row) == ("SL112", 19)
        assert "changes from run to run (initial weights, data order and dropout)" in (
            finding.message
        )

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            (
                "    args = parser.parse_args()\n",
                "    args = parser.parse_args()\n    torch.manual_seed(0)\n",
            ),
            (
                "    args = parser.parse_args()\n",
                "    args = parser.parse_args()\n    set_seed(3)\n",
            ),
            # detectron2's default_setup seeds from the config
            ("import torch\n", "import torch\nfrom detectron2.engine import default_setup\n"),
            # an inference script: no backward pass, no optimizer step
            ("        loss.backward()\n        optimizer.step()\n", ""),
            # gradients taken to score heads or inputs, no optimizer stepped
            ("        optimizer.step()\n", ""),
            # nothing random: weights from zeros, data in order
            (
                "    model = nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.5))\n",
                "    model = nn.Sequential(nn.Identity())\n",
            ),
            # a benchmark of the step
            ("def main():", "def benchmark_step():"),
        ],
    )
    def test_programs_that_seed_or_do_not_train_a_model_are_left_alone(self, old, new):
        source = textwrap.dedent(TRAINING).replace(old, new)
        if "default_setup" in source:
            source = source.replace(
                "args = parser.parse_args()\n",
                "args = parser.parse_args()\n    default_setup(None, args)\n",
            )
        if "Identity" in source:
            source = source.replace("shuffle=True", "shuffle=False")
        if "benchmark_step" in source:
            source = source.replace("        main()", "        benchmark_step()")
        assert codes_of(source, {"SL112"}) == []

    def test_a_library_module_whose_body_runs_no_training_is_left_alone(self):
        library = textwrap.dedent(TRAINING).split("if __name__ ==")[0]
        assert codes_of(library, {"SL112"}) == []

    def test_a_test_file_is_not_a_training_program(self):
        assert codes_of(TRAINING, {"SL112"}, path="tests/test_training.py") == []

    def test_a_lightning_fit_without_seed_everything_trains_unseeded(self):
        source = """\
            import lightning as L
            from torch import nn


            class Model(L.LightningModule):
                def __init__(self):
                    super().__init__()
                    self.layer = nn.Linear(4, 2)


            if __name__ == "__main__":
                L.Trainer(max_epochs=1).fit(Model())
            """
        assert codes_of(source, {"SL112"}) == ["SL112"]
        seeded = textwrap.dedent(source).replace(
            'if __name__ == "__main__":\n', 'if __name__ == "__main__":\n    L.seed_everything(0)\n'
        )
        assert codes_of(seeded, {"SL112"}) == []

    def test_seeding_that_only_the_loaders_workers_run_does_not_seed_the_program(self):
        source = """\
            import random

            import torch
            from torch.utils.data import DataLoader, TensorDataset


            def seed_worker(worker_id):
                random.seed(worker_id)


            def main():
                model = torch.nn.Linear(2, 1)
                optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
                data = TensorDataset(torch.ones(8, 2), torch.ones(8, 1))
                loader = DataLoader(data, shuffle=True, num_workers=2, worker_init_fn=seed_worker)
                for x, y in loader:
                    loss = ((model(x) - y) ** 2).mean()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


            if __name__ == "__main__":
                main()
            """
        assert codes_of(source, {"SL112"}) == ["SL112"]
        # the program seeds too, or calls the helper itself
        for seeding in ("torch.manual_seed(0)", "seed_worker(0)"):
            seeded = textwrap.dedent(source).replace(
                "    model = torch", f"    {seeding}\n    model = torch"
            )
            assert codes_of(seeded, {"SL112"}) == []

    def test_a_lightning_flash_trainer_is_a_lightning_trainer(self):
        source = """\
            import flash
            from flash.tabular import TabularClassifier
            from torch import nn


            def main(datamodule):
                model = TabularClassifier.from_data(datamodule, backbone="fttransformer")
                model.head = nn.Linear(4, 2)
                flash.Trainer(max_epochs=3).fit(model, datamodule=datamodule)


            if __name__ == "__main__":
                main(None)
            """
        assert codes_of(source, {"SL112"}) == ["SL112"]
        assert codes_of(source.replace("fit(", "validate("), {"SL112"}) == []

    def test_the_fix_seeds_with_the_programs_own_seed_option_once(self):
        source = textwrap.dedent(TRAINING).replace(
            '    parser.add_argument("--lr"',
            '    parser.add_argument("--seed", type=int, default=1)\n    parser.add_argument("--lr"',
        )
        fixed = lint(source, {"SL112"}, fix="unsafe")
        assert (
            "    args = parser.parse_args()\n    torch.manual_seed(args.seed)\n"
            in fixed.source.text
        )
        assert [d.code for d in fixed.diagnostics] == []
        again = lint(fixed.source.text, {"SL112"}, fix="unsafe")
        assert again.source.text == fixed.source.text

    def test_without_a_seed_option_the_fix_seeds_first_in_the_main_block_with_a_fixed_value(self):
        fixed = lint(TRAINING, {"SL112"}, fix="unsafe").source.text
        assert fixed.endswith('if __name__ == "__main__":\n    torch.manual_seed(0)\n    main()\n')

    def test_a_top_level_script_is_seeded_after_its_imports_with_numpy_and_random_too(self):
        source = """\
            import random

            import numpy as np
            import torch

            model = torch.nn.Linear(4, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(10):
                batch = torch.tensor(np.random.rand(8, 4), dtype=torch.float32)
                loss = model(batch).sum() * random.random()
                loss.backward()
                optimizer.step()
            """
        (finding,) = lint(source, {"SL112"}).diagnostics
        assert (
            "initial weights and draws of `numpy.random.rand` and `random.random`"
            in finding.message
        )
        fixed = lint(source, {"SL112"}, fix="unsafe").source.text
        assert (
            "import torch\n\ntorch.manual_seed(0)\nrandom.seed(0)\nnp.random.seed(0)\nmodel ="
            in fixed
        )


def test_seeding_on_import_and_a_module_others_import_stay_silent(write, tmp_path):
    write("train.py", TRAINING)
    write("demo.py", "import torch\n" + textwrap.dedent(TRAINING).replace("import torch\n", ""))
    write("eval.py", "from demo import main\n")
    result = run_cli(
        "check", "--isolated", "--select", "SL112", "--output-format", "concise", ".", cwd=tmp_path
    )
    assert result.stdout.decode().splitlines()[0].startswith("train.py:19:")
    assert "demo.py" not in result.stdout.decode()
    write("utils.py", "import torch\n\ntorch.manual_seed(0)\n")
    write("train.py", "import utils\n" + textwrap.dedent(TRAINING))
    result = run_cli("check", "--isolated", "--select", "SL112", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stdout.decode()


OPTION = """\
    import argparse

    import torch


    def train(args):
        print(args)
        return torch.nn.Linear(4, args.width)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default=0, help="random seed")
        parser.add_argument("--width", type=int, default=2)
        args = parser.parse_args()
        torch.manual_seed(42)
        train(args)


    if __name__ == "__main__":
        main()
    """


class TestSL113UnusedSeedOption:
    def test_a_seed_option_nothing_reads_is_flagged_with_what_seeds_instead(self):
        (finding,) = lint(OPTION, {"SL113"}).diagnostics
        assert (finding.code, finding.start.row) == ("SL113", 13)
        assert "nothing in the program reads it, so `--seed 3` changes nothing" in finding.message
        assert "the program seeds with `42` instead (line 16)" in finding.message

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            ("torch.manual_seed(42)", "torch.manual_seed(args.seed)"),
            ("torch.manual_seed(42)", 'torch.manual_seed(getattr(args, "seed"))'),
            ("    train(args)\n", "    train(**vars(args))\n"),  # the namespace escapes
            ("    train(args)\n", "    run_experiment(args)\n"),  # handed to code not seen
            ("    train(args)\n", "    return args\n"),
            ('"--seed", type=int', '"--seed", dest="random_state", type=int'),  # read under dest
        ],
    )
    def test_an_option_read_or_a_namespace_that_escapes_is_left_alone(self, old, new):
        source = textwrap.dedent(OPTION).replace(old, new)
        if "random_state" in source:
            source = source.replace("torch.manual_seed(42)", "torch.manual_seed(args.random_state)")
        assert codes_of(source, {"SL113"}) == []

    def test_an_option_parsed_in_a_program_that_seeds_nothing(self):
        source = textwrap.dedent(OPTION).replace("    torch.manual_seed(42)\n", "")
        (finding,) = lint(source, {"SL113"}).diagnostics
        assert finding.message.endswith("the program seeds nothing")

    def test_a_namespace_saved_or_logged_is_not_read(self):
        source = textwrap.dedent(OPTION).replace(
            "    train(args)\n", '    torch.save(args, "args.bin")\n    train(args)\n'
        )
        assert codes_of(source, {"SL113"}) == ["SL113"]


@pytest.mark.parametrize(
    ("text", "path", "opened"),
    [
        (b"for epoch in range(3):\n    loss.backward()\n    opt.step()\n", "train.py", True),
        (b'if __name__ == "__main__":\n    loss.backward(); opt.step()\n', "train.py", True),
        (b"loss.backward()\nopt.step()\n", "demo.ipynb", True),
        # a library: docstring examples and a top-level loop that registers names
        (b'"""loss.backward(); opt.step()"""\nfor name in __all__:\n    pass\n', "lib.py", False),
        # a script that seeds: SL112 has nothing to say, the file is not parsed for it
        (
            b"torch.manual_seed(0)\nfor epoch in range(3):\n    loss.backward(); opt.step()\n",
            "t.py",
            False,
        ),
        # Lightning's `Trainer(` seeds nothing
        (b'if __name__ == "__main__":\n    L.Trainer().fit(model)\n', "train.py", True),
        # a top-level `try` around the loop, a top-level `while`, a call in a top-level `else`
        (
            b"try:\n    for epoch in range(3):\n        loss.backward(); opt.step()\n"
            b"except KeyboardInterrupt:\n    pass\n",
            "train.py",
            True,
        ),
        (b"while reward < 1.0:\n    loss.backward(); opt.step()\n", "train.py", True),
        # a trainer's results unpacked (`mrr, hit = runner.train(..)`)
        (b"loss.backward; step\nmrr, hit = runner.train(10)\n", "main.py", True),
        (b"loss.backward; step\nif args.test:\n    x = 1\nelse:\n    run.train(m)\n", "m.py", True),
        # a loop or a training call in a function is not the module's own code
        (
            b"def fit(m):\n    for epoch in range(3):\n        loss.backward(); opt.step()\n",
            "l.py",
            False,
        ),
        # a seeding line commented out seeds nothing, in a script or a notebook's JSON
        (
            b"# torch.manual_seed(1)\nfor epoch in range(3):\n    loss.backward(); opt.step()\n",
            "t.py",
            True,
        ),
        (
            b'{"cells": [{"source": [\n    "# torch.manual_seed(1)\\n",\n'
            b'    "loss.backward(); opt.step()"\n]}]}',
            "n.ipynb",
            True,
        ),
    ],
)
def test_sl112_parses_only_scripts_that_may_train_unseeded(text, path, opened):
    from seedlint.gates import Gate
    from seedlint.rules import RULES

    rule = RULES["SL112"]()
    assert (Gate().rules_for([rule], text, path) == [rule]) is opened


RESUME = """\
    import torch
    from torch import nn


    def main(resume, epochs=10):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        start_epoch = 0
        if resume:
            checkpoint = torch.load(resume)
            start_epoch = checkpoint["epoch"] + 1
            model.load_state_dict(checkpoint["model"])
            optimizer.load_state_dict(checkpoint["optimizer"])
        for epoch in range(start_epoch, epochs):
            loss = model(torch.randn(8, 4)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            torch.save({"epoch": epoch, "model": model.state_dict()}, "last.pt")
    """


class TestSL114ResumeWithoutRngState:
    def test_a_seeded_run_resumed_without_generator_state_is_flagged_at_the_load(self):
        (finding,) = lint(RESUME, {"SL114"}).diagnostics
        assert (finding.code, finding.start.row) == ("SL114", 11)
        assert "training restarts at `start_epoch`" in finding.message
        assert finding.fix.applicability is Applicability.UNSAFE

    def test_the_fix_saves_the_state_with_the_checkpoint_and_restores_it_after_the_load(self):
        fixed = lint(RESUME, {"SL114"}, fix="unsafe")
        assert fixed.source.text == textwrap.dedent(RESUME).replace(
            "        checkpoint = torch.load(resume)\n",
            "        checkpoint = torch.load(resume)\n"
            '        if "torch_rng" in checkpoint:\n'
            '            torch.set_rng_state(checkpoint["torch_rng"])\n',
        ).replace(
            '"model": model.state_dict()}',
            '"model": model.state_dict(), "torch_rng": torch.get_rng_state()}',
        )
        assert lint(fixed.source.text, {"SL114"}).diagnostics == []  # idempotent

    def test_the_fix_keeps_a_dicts_lines_and_saves_each_generator_the_module_uses(self):
        source = (
            "import random\nimport numpy as np\nimport torch\n\ntorch.manual_seed(0)\n"
            "model = torch.nn.Linear(4, 4).cuda()\nstart = 0\nif resume:\n"
            "\tckpt = torch.load(resume, weights_only=False)\n\tstart = ckpt.get('step', 0)\n"
            "for step in range(start, 6):\n\tstate = {\n\t\t'step': step,  # where it stopped\n\t}\n"
            "\ttorch.save(state, 'ckpt.pth')\n"
        )
        fixed = lint(source, {"SL114"}, fix="unsafe").source.text
        assert (
            "\tckpt = torch.load(resume, weights_only=False)\n"
            "\tif 'torch_rng' in ckpt:\n"
            "\t\ttorch.set_rng_state(ckpt['torch_rng'])\n"
            "\t\ttorch.cuda.set_rng_state_all(ckpt['cuda_rng'])\n"
            "\t\trandom.setstate(ckpt['python_rng'])\n"
            "\t\tnp.random.set_state(ckpt['numpy_rng'])\n"
        ) in fixed
        assert (
            "\tstate = {\n\t\t'step': step,  # where it stopped\n"
            "\t\t'torch_rng': torch.get_rng_state(),\n"
            "\t\t'cuda_rng': torch.cuda.get_rng_state_all(),\n"
            "\t\t'python_rng': random.getstate(),\n"
            "\t\t'numpy_rng': np.random.get_state(),\n\t}\n"
        ) in fixed
        # without a trailing comma, the entry gets one and the new last entry none
        no_comma = lint(source.replace("step,  #", "step  #"), {"SL114"}, fix="unsafe")
        assert (
            "\t\t'step': step,  # where it stopped\n\t\t'torch_rng': torch.get_rng_state(),\n"
        ) in no_comma.source.text
        assert "\t\t'numpy_rng': np.random.get_state()\n\t}" in no_comma.source.text
        # the dict closes on its last entry's line: the new entries go before the brace
        closing = lint(source.replace(",  # where it stopped\n\t}", "}"), {"SL114"}, fix="unsafe")
        assert (
            "\t\t'step': step,\n\t\t'torch_rng': torch.get_rng_state(),\n"
        ) in closing.source.text
        assert "\t\t'numpy_rng': np.random.get_state()}\n" in closing.source.text
        # torch.load refuses NumPy's state by default (weights_only=True from torch 2.6)
        default_load = lint(source.replace(", weights_only=False", ""), {"SL114"}, fix="unsafe")
        assert "numpy_rng" not in default_load.source.text

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            # saved by a helper: the checkpoint's dict is not in view
            (
                '        torch.save({"epoch": epoch, "model": model.state_dict()}, "last.pt")',
                "        save_checkpoint(model, epoch)",
            ),
            # two dicts saved with the epoch: which one the run resumes from is not known
            (
                '        torch.save({"epoch": epoch, "model": model.state_dict()}, "last.pt")',
                '        torch.save({"epoch": epoch, "model": model.state_dict()}, "last.pt")\n'
                '        torch.save({"epoch": epoch, "model": model.state_dict()}, "best.pt")',
            ),
        ],
    )
    def test_the_recipe_alone_when_the_saved_checkpoint_is_not_in_view(self, old, new):
        (finding,) = lint(textwrap.dedent(RESUME).replace(old, new), {"SL114"}).diagnostics
        assert finding.fix.applicability is Applicability.DISPLAY_ONLY and not finding.fix.edits

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            # the generators' states restored
            (
                '        model.load_state_dict(checkpoint["model"])\n',
                '        model.load_state_dict(checkpoint["model"])\n'
                '        torch.set_rng_state(checkpoint["rng"])\n',
            ),
            (
                "        optimizer.load_state_dict",
                "        accelerator.load_state(resume)\n        optimizer.load_state_dict",
            ),
            # fine-tuning from weights: the loop does not restart where the checkpoint stopped
            ("range(start_epoch, epochs)", "range(0, epochs)"),
            ("range(start_epoch, epochs)", "range(epochs - 1)"),
            # a program that seeds nothing (SL112's concern)
            ("    torch.manual_seed(0)\n", ""),
        ],
    )
    def test_runs_that_restore_state_or_do_not_resume_are_left_alone(self, old, new):
        assert codes_of(textwrap.dedent(RESUME).replace(old, new), {"SL114"}) == []

    def test_a_projects_own_checkpoint_loader_and_a_computed_start(self):
        source = (
            textwrap.dedent(RESUME)
            .replace("torch.load(resume)", "load_checkpoint(resume, 'cpu')")
            .replace("range(start_epoch, epochs)", "range(max(0, start_epoch), epochs)")
        )
        assert codes_of(source, {"SL114"}) == ["SL114"]

    def test_a_loop_shortened_by_the_saved_epoch_resumes(self):
        source = textwrap.dedent(RESUME).replace(
            "range(start_epoch, epochs)", "range(epochs - start_epoch)"
        )
        assert codes_of(source, {"SL114"}) == ["SL114"]


@pytest.mark.parametrize(
    ("train", "flagged"),
    [
        ("", True),  # the trainer of another module backpropagates and steps, nothing seeds
        ("        torch.manual_seed(0)\n", False),  # it seeds before it trains
    ],
)
def test_sl112_follows_training_into_another_module(write, tmp_path, train, flagged):
    runner = textwrap.dedent(
        """\
        import torch
        from torch import nn


        class Runner:
            def __init__(self, args):
                self.args = args

            def train(self):
        {train}        model = nn.Linear(4, 2)
                optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
                model(torch.ones(8, 4)).sum().backward()
                optimizer.step()
        """
    )
    write("runner.py", runner.replace("{train}", train))
    write(
        "main.py",
        """\
        import argparse

        from runner import Runner

        if __name__ == "__main__":
            Runner(argparse.ArgumentParser().parse_args()).train()
        """,
    )
    result = run_cli(
        "check", "--isolated", "--select", "SL112", "--output-format", "concise", ".", cwd=tmp_path
    )
    out = result.stdout.decode()
    assert ("main.py:6:5: SL112 This program trains (`Runner(...).train()`)" in out) is flagged, out


def test_sl112_a_call_of_a_name_bound_to_a_bare_module_is_no_trainer_fit():
    """`tqdm(..)` after `import tqdm`: the callee has no dot, and asking whether it is a
    Lightning trainer's `fit` must not fail."""
    result = lint(
        """\
        import torch
        import tqdm

        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in tqdm(range(3)):
            model(torch.randn(1, 2)).sum().backward()
            optimizer.step()
        """,
        ["SL112"],
    )
    assert result.errors == []
    assert [d.code for d in result.diagnostics] == ["SL112"]
