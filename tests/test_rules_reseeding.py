"""SL110 reseeded-every-iteration: what it flags (a constant seed set again on every training iteration,
item or per-epoch hook) and the look-alikes it leaves alone.

Every source starts on row 1 (the `\\` after the opening quotes), so rows can be read off the snippet.
"""

from __future__ import annotations

import pytest
from conftest import lint
from test_project import check

TRAINING = """\
    import torch
    import numpy as np

    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(torch.randn(8, 3), shuffle=True)
    """


def findings(source: str, **kwargs) -> list[tuple[int, int]]:
    return [(d.start.row, d.start.column) for d in lint(source, {"SL110"}, **kwargs).diagnostics]


def messages(source: str) -> list[str]:
    return [d.message for d in lint(source, {"SL110"}).diagnostics]


def training(loop: str, before: str = "") -> str:
    """The module TRAINING (6 lines), then `before`, then `loop` (both without indentation)."""
    return TRAINING.rstrip(" ") + "".join(f"    {line}\n" for line in (before + loop).splitlines())


class TestFlagged:
    @pytest.mark.parametrize(
        "loop, row",
        [
            (
                "for epoch in range(3):\n    torch.manual_seed(0)\n    for x in loader:\n        model(x).sum().backward()\n",
                (8, 5),
            ),
            (
                "for epoch in range(3):\n    for x in loader:\n        np.random.seed(1234)\n"
                "        model(x).sum().backward()\n",
                (9, 9),
            ),
            (
                "step = 0\nwhile step < 10:\n    torch.manual_seed(7)\n    loss = model(torch.randn(1, 3)).sum()\n"
                "    loss.backward()\n    step += 1\n",
                (9, 5),
            ),
            (
                "for epoch in range(3):\n    for x in loader:\n        accelerator.backward(model(x).sum())\n"
                "    torch.manual_seed(0)\n",
                (10, 5),
            ),
        ],
        ids=[
            "in-the-epoch-loop",
            "in-the-batch-loop",
            "while-loop",
            "accelerate-backward-after-it",
        ],
    )
    def test_a_constant_seed_in_a_loop_that_trains(self, loop, row):
        assert findings(training(loop)) == [row]

    def test_an_evaluation_called_from_the_epoch_loop_is_reported_where_it_seeds(self):
        source = training(
            "def evaluate(model, args):\n    torch.manual_seed(args.seed)\n    return model(torch.randn(2, 3))\n"
            "def main(args):\n    for epoch in range(3):\n        for x in loader:\n"
            "            model(x).sum().backward()\n        evaluate(model, args)\n"
        )
        assert findings(source) == [(8, 5)]
        (message,) = messages(source)
        assert (
            "on every iteration of the training loop on line 11 (through `evaluate()`)" in message
        )
        assert "replays the same random numbers" in message

    def test_a_seeding_helper_is_reported_at_the_call_that_passes_the_constant(self):
        source = training(
            "def set_seed(seed):\n    torch.manual_seed(seed)\n    np.random.seed(seed)\n"
            "for epoch in range(3):\n    set_seed(42)\n    model(torch.randn(1, 3)).sum().backward()\n"
        )
        assert findings(source) == [(11, 5)]
        assert (
            "seeds the torch CPU and NumPy global generators with the same value"
            in messages(source)[0]
        )

    @pytest.mark.parametrize(
        "seed", ["args.seed", "SEED", "config['seed']", "int(args.seed)", "cfg.get('seed', 0)"]
    )
    def test_values_fixed_before_the_loop_are_the_same_every_time(self, seed):
        source = training(
            f"for epoch in range(3):\n    torch.manual_seed({seed})\n    model(torch.randn(1, 3)).sum().backward()\n",
            before="args = parser.parse_args()\nconfig = load(args)\ncfg = config\nSEED = 3\n",
        )
        assert findings(source) == [(12, 5)]

    @pytest.mark.parametrize(
        "imports, call",
        [
            ("import torch as T", "T.manual_seed(0)"),
            ("from torch import manual_seed as reset", "reset(0)"),
            ("from numpy import random as npr", "npr.seed(0)"),
            ("import lightning as L", "L.seed_everything(0)"),
        ],
    )
    def test_seeding_calls_are_resolved_through_aliases(self, imports, call):
        source = f"""\
            {imports}
            import torch


            def fit(model, loader, optimizer):
                for batch in loader:
                    {call}
                    model(batch).sum().backward()
                    optimizer.step()
            """
        assert findings(source) == [(7, 9)]

    @pytest.mark.parametrize("seed", ["self.seed", "0", "SEED"])
    def test_a_constant_seed_in_getitem(self, seed):
        source = f"""\
            import random
            from torch.utils.data import Dataset

            SEED = 1


            class Crops(Dataset):
                def __getitem__(self, index):
                    random.seed({seed})
                    return random.randint(0, 10)
            """
        assert findings(source) == [(9, 9)]
        assert "for every item `Crops.__getitem__` returns" in messages(source)[0]

    @pytest.mark.parametrize(
        "imports, base",
        [
            ("import lightning as L", "L.LightningModule"),
            ("import pytorch_lightning as pl", "pl.LightningModule"),
            ("from lightning.pytorch import Callback as Base", "Base"),
        ],
    )
    def test_a_constant_seed_in_a_per_epoch_lightning_hook(self, imports, base):
        source = f"""\
            {imports}
            import torch


            class Model({base}):
                def on_validation_epoch_start(self, *args):
                    torch.manual_seed(0)
            """
        assert findings(source) == [(7, 9)]

    def test_a_constant_seed_in_a_transformers_callback(self):
        source = """\
            from transformers import TrainerCallback, set_seed


            class Reseed(TrainerCallback):
                def on_epoch_begin(self, args, state, control, **kwargs):
                    set_seed(args.seed)
            """
        assert findings(source) == [(6, 9)]

    def test_numpy_seeding_inside_fork_rng_is_still_reported(self):
        source = training(
            "for epoch in range(3):\n    with torch.random.fork_rng():\n        torch.manual_seed(0)\n"
            "        np.random.seed(0)\n    model(torch.randn(1, 3)).sum().backward()\n"
        )
        assert findings(source) == [(10, 9)]
        assert "NumPy global generator" in messages(source)[0]

    def test_fork_rng_that_is_turned_off_restores_nothing(self):
        source = training(
            "for epoch in range(3):\n    with torch.random.fork_rng(enabled=False):\n        torch.manual_seed(0)\n"
            "    model(torch.randn(1, 3)).sum().backward()\n"
        )
        assert findings(source) == [(9, 9)]

    def test_a_seeding_helper_of_another_module(self, tmp_path):
        (tmp_path / "utils.py").write_text(
            "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
        )
        (tmp_path / "train.py").write_text(
            "import torch\nfrom utils import set_seed\n\nmodel = torch.nn.Linear(2, 1)\n"
            "for epoch in range(3):\n    set_seed(42)\n    model(torch.randn(1, 2)).sum().backward()\n"
        )
        assert ("train.py", "SL110", 6) in check(tmp_path, extra=("--select", "SL110"))


class TestLeftAlone:
    @pytest.mark.parametrize(
        "loop",
        [
            "for epoch in range(3):\n    torch.manual_seed(args.seed + epoch)\n    model(x).sum().backward()\n",
            "for run, seed in enumerate(seeds):\n    torch.manual_seed(seed)\n    model(x).sum().backward()\n",
            "for epoch in range(3):\n    s = base + epoch\n    torch.manual_seed(s)\n    model(x).sum().backward()\n",
            "for epoch in range(3):\n    torch.manual_seed(next_seed())\n    model(x).sum().backward()\n",
            "for epoch in range(3):\n    torch.manual_seed(seeds[epoch])\n    model(x).sum().backward()\n",
        ],
        ids=[
            "seed-plus-epoch",
            "seed-from-the-loop",
            "computed-in-the-iteration",
            "unknown-call",
            "indexed-by-epoch",
        ],
    )
    def test_a_seed_that_changes_every_iteration(self, loop):
        assert findings(training(loop)) == []

    @pytest.mark.parametrize(
        "restart",
        [
            "optimizer = torch.optim.Adam(model.parameters())",
            "model = Net()",
            "model.load_state_dict(initial_state)",
            "model = AutoModel.from_pretrained(name)",
            "model = copy.deepcopy(initial_model)",
            "trainer = Trainer(model=model, args=args)",
        ],
    )
    def test_a_loop_that_starts_training_over_each_time(self, restart):
        source = training(
            f"class Net(torch.nn.Module):\n    pass\nfor config in configs:\n    torch.manual_seed(0)\n    {restart}\n"
            "    for x in loader:\n        model(x).sum().backward()\n",
            before="from transformers import AutoModel, Trainer\nimport copy\n",
        )
        assert findings(source) == []

    def test_a_restart_inside_a_function_the_loop_calls(self):
        source = training(
            "def run(config):\n    model = torch.nn.Linear(3, 1)\n    opt = torch.optim.SGD(model.parameters(), 0.1)\n"
            "    for x in loader:\n        model(x).sum().backward()\nfor config in configs:\n"
            "    torch.manual_seed(0)\n    run(config)\n"
        )
        assert findings(source) == []

    @pytest.mark.parametrize("step, expected", [("self.seed += 1", []), ("pass", [(10, 9)])])
    def test_a_seed_attribute_stepped_before_each_reseed(self, step, expected):
        """Each trial reseeds with the next seed: the attribute is stepped by the class; kept
        as it is, the same seed replays every trial (the rebuild through attributes unseen)."""
        source = f"""\
            import torch


            class Agent:
                def __init__(self, make_model, optimizer_class, seed=0):
                    self.make_model, self.optimizer_class, self.seed = make_model, optimizer_class, seed

                def reinit(self):
                    {step}
                    torch.manual_seed(self.seed)
                    self.model = self.make_model()
                    self.optimizer = self.optimizer_class(self.model.parameters())

                def learn(self, trials):
                    for trial in range(trials):
                        self.reinit()
                        for _ in range(10):
                            self.model(torch.randn(2, 3)).sum().backward()
                            self.optimizer.step()
            """
        assert findings(source) == expected

    def test_a_loop_that_does_not_train(self):
        source = training(
            "for prompt in prompts:\n    torch.manual_seed(0)\n    print(generate(model, prompt))\n"
        )
        assert findings(source) == []

    @pytest.mark.parametrize(
        "wrapped",
        [
            "with torch.random.fork_rng():\n        torch.manual_seed(0)\n        evaluate(model)",
            "with fork_rng(devices=[]):\n        torch.manual_seed(0)\n        evaluate(model)",
            "with isolate_rng():\n        set_seed(0)\n        evaluate(model)",
            "state = torch.get_rng_state()\n    torch.manual_seed(0)\n    evaluate(model)\n"
            "    torch.set_rng_state(state)",
        ],
        ids=["fork_rng", "fork_rng-imported", "lightning-isolate_rng", "state-put-back"],
    )
    def test_seeding_whose_state_is_put_back(self, wrapped):
        source = training(
            f"for epoch in range(3):\n    model(torch.randn(1, 3)).sum().backward()\n    {wrapped}\n",
            before="from torch.random import fork_rng\nfrom lightning.pytorch.utilities.seed import isolate_rng\n"
            "from transformers import set_seed\n",
        )
        assert findings(source) == []

    def test_seeding_once_before_the_loop_or_after_it(self):
        source = training(
            "torch.manual_seed(0)\nfor epoch in range(3):\n    model(torch.randn(1, 3)).sum().backward()\n"
            "else:\n    torch.manual_seed(1)\ntorch.manual_seed(2)\n"
        )
        assert findings(source) == []

    @pytest.mark.parametrize(
        "seed",
        ["self.seed + index", "index", "hash(self.paths[index]) % 2**32", "self.seed * 1000 + idx"],
    )
    def test_a_per_item_seed(self, seed):
        source = f"""\
            import numpy as np


            class Patches:
                def __getitem__(self, index):
                    idx = index
                    np.random.seed({seed})
                    return np.random.rand(3)
            """
        assert findings(source) == []

    def test_a_generator_object_seeded_in_getitem_is_not_global_seeding(self):
        source = """\
            import torch


            class Noise:
                def __getitem__(self, index):
                    generator = torch.Generator().manual_seed(0)
                    return torch.randn(3, generator=generator)
            """
        assert findings(source) == []

    @pytest.mark.parametrize("seed", ["self.current_epoch", "batch_idx", "trainer.global_step"])
    def test_a_hook_seed_that_counts(self, seed):
        source = f"""\
            import lightning as L
            import torch


            class Model(L.LightningModule):
                def validation_step(self, batch, batch_idx, trainer=None):
                    torch.manual_seed({seed})
            """
        assert findings(source) == []

    def test_a_method_of_a_class_that_is_not_a_framework_hook(self):
        source = """\
            import torch


            class Model(torch.nn.Module):
                def on_validation_epoch_start(self):
                    torch.manual_seed(0)
            """
        assert findings(source) == []

    def test_cuda_only_seeding_in_a_module_without_cuda(self):
        source = training(
            "for epoch in range(3):\n    torch.cuda.manual_seed_all(0)\n    model(torch.randn(1, 3)).sum().backward()\n"
        )
        assert findings(source) == []

    def test_a_worker_init_fn_seeding_a_constant_is_sl203s(self):
        source = """\
            import numpy as np
            import torch


            def seed_worker(worker_id):
                np.random.seed(0)


            loader = torch.utils.data.DataLoader(range(8), num_workers=2, worker_init_fn=seed_worker)
            for epoch in range(3):
                for x in loader:
                    x.float().sum().backward()
            """
        assert findings(source) == []


class TestIterationsAndEpisodes:
    def test_a_seed_guarded_to_run_in_the_first_iteration_only(self):
        source = training(
            "for epoch in range(3):\n    if epoch == 0:\n        torch.manual_seed(0)\n"
            "    model(torch.randn(1, 3)).sum().backward()\n"
        )
        assert findings(source) == []

    @pytest.mark.parametrize(
        "test", ["epoch == 0", "not epoch", "epoch == args.start_epoch", "args.eval and epoch is 0"]
    )
    def test_a_seed_under_a_test_that_picks_one_iteration_runs_once(self, test):
        source = training(
            f"for epoch in range(3):\n    if {test}:\n        torch.manual_seed(0)\n"
            "    model(torch.randn(1, 3)).sum().backward()\n"
        )
        assert findings(source) == []

    @pytest.mark.parametrize(
        "test", ["epoch % 2 == 0", "epoch > 2", "(epoch + 1) % args.preview_every == 0"]
    )
    def test_a_seed_under_a_test_that_holds_in_many_iterations_repeats(self, test):
        # diffusers' unconditional training: `generator = torch.manual_seed(0)` for the previews every few epochs
        source = training(
            f"for epoch in range(6):\n    model(torch.randn(1, 3)).sum().backward()\n"
            f"    if {test}:\n        generator = torch.manual_seed(0)\n"
        )
        assert findings(source) == [(10, 21)]
        assert (
            f"with the same value whenever `{test}` holds in the training loop on line 7"
            in messages(source)[0]
        )
        assert messages(source)[0].endswith("repeat each time it runs")

    def test_a_seed_once_per_call_of_the_epoch_function_counts_for_the_epoch_loop(self):
        source = training(
            "def train_one_epoch():\n    for i, x in enumerate(loader):\n        if i == 0:\n"
            "            torch.manual_seed(0)\n        model(x).sum().backward()\n"
            "for epoch in range(3):\n    train_one_epoch()\n"
        )
        assert findings(source) == [(10, 13)]
        assert "training loop on line 12 (through `train_one_epoch()`)" in messages(source)[0]

    def test_stable_baselines3_seeding_and_callbacks(self):
        source = """\
            import numpy as np
            from stable_baselines3.common.callbacks import EvalCallback
            from stable_baselines3.common.utils import set_random_seed


            class FixedEval(EvalCallback):
                def _on_step(self):
                    np.random.seed(0)
                    return super()._on_step()


            def fit(model, loader):
                for batch in loader:
                    set_random_seed(0)
                    model(batch).backward()
            """
        assert findings(source) == [(8, 9), (14, 9)]

    def test_the_old_gym_api_seeding_the_environment_before_every_episode(self):
        source = """\
            import gym

            env = gym.make("CartPole-v1")
            env.seed(7)
            for episode in range(10):
                env.seed(0)
                obs = env.reset()
            for episode in range(10):
                env.seed(episode)
                obs = env.reset()
            """
        assert findings(source) == [(6, 5)]

    def test_an_environment_reset_with_the_same_seed_every_episode(self):
        source = """\
            import gymnasium as gym

            env = gym.make("CartPole-v1")
            for seed in [1, 2, 3]:
                for episode in range(10):
                    obs, info = env.reset(seed=seed)
                for episode in range(10):
                    obs, info = env.reset(seed=seed + episode)
                for episode in range(10):
                    if episode == 0:
                        obs, info = env.reset(seed=seed)
                    obs, info = env.reset()
            obs, info = env.reset(seed=42)
            other.reset(seed=0)
            """
        assert findings(source) == [(6, 21)]
        assert messages(source)[0].endswith(
            "with the same value on every iteration of the loop on line 5, so every episode starts from the same "
            "state and replays the same randomness"
        )
