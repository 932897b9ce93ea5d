"""Behaviour of SL202 (RNG objects duplicated into DataLoader workers) and SL203 (constant worker seeds).

Every source below starts on row 1 (the `\\` after the opening quotes); columns are 1-based.
"""

from __future__ import annotations

import textwrap

import libcst
import pytest
from conftest import lint

from seedlint.diagnostics import Applicability


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def dedent(source: str) -> str:
    return textwrap.dedent(source)


# A map-style dataset that stores a NumPy Generator in __init__ and draws from it in __getitem__.
NOISY = """\
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Noisy(Dataset):
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return 8

    def __getitem__(self, index):
        return self.rng.normal()


"""
LOADER_ROW = NOISY.count("\n") + 1


# ============================================================================ SL202
class TestSL202WorkerRngDuplication:
    def test_loader_with_workers_is_flagged_at_the_call_naming_class_and_attribute(self):
        (diagnostic,) = lint(
            NOISY + "loader = DataLoader(Noisy(), num_workers=2)\n", {"SL202"}
        ).diagnostics
        assert (diagnostic.start.row, diagnostic.start.column) == (LOADER_ROW, 10)
        assert "`Noisy`" in diagnostic.message
        assert "`self.rng` (`np.random.default_rng`)" in diagnostic.message
        assert "no `worker_init_fn` reseeds it" in diagnostic.message
        assert "every worker draws the same" in diagnostic.message
        assert "info.dataset.rng = np.random.default_rng(info.seed)" in diagnostic.help

    @pytest.mark.parametrize(
        "loader",
        [
            "ds = Noisy()\nloader = DataLoader(ds, batch_size=4, num_workers=4)\n",
            "loader = DataLoader(Noisy(), num_workers=args.workers)\n",
            "num_workers = 2\nloader = DataLoader(Noisy(), 4, False, None, None, num_workers)\n",
            "loader = DataLoader(dataset=Noisy(), num_workers=2, persistent_workers=True)\n",
            "g = torch.Generator()\ng.manual_seed(0)\nloader = DataLoader(Noisy(), num_workers=2, generator=g)\n",
            "def make():\n    ds = Noisy()\n    return DataLoader(ds, shuffle=True, num_workers=8)\n",
        ],
        ids=[
            "through-variable",
            "num-workers-from-args",
            "positional-num-workers",
            "persistent-workers",
            "generator-does-not-fix-it",
            "inside-function",
        ],
    )
    def test_loader_forms_are_flagged(self, loader):
        assert [code for code, _, _ in findings(NOISY + loader, {"SL202"})] == ["SL202"]

    def test_worker_init_fn_seeding_only_global_generators_does_not_fix_it(self):
        source = NOISY + dedent("""\
            def seed_worker(worker_id):
                np.random.seed(torch.initial_seed() % 2**32)


            loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)
            """)
        (diagnostic,) = lint(source, {"SL202"}).diagnostics
        assert "its `worker_init_fn` `seed_worker` does not reseed it" in diagnostic.message

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import numpy as onp
            import torch.utils.data as tud
            from numpy.random import default_rng as make_rng


            class Noisy(tud.Dataset):
                def __init__(self):
                    self.rng = make_rng(0)

                def __getitem__(self, index):
                    return self.rng.integers(10)


            loader = tud.DataLoader(Noisy(), num_workers=2)
            """,
            """\
            import random
            from torch.utils.data import DataLoader, IterableDataset


            class Stream(IterableDataset):
                def __init__(self):
                    self.rng = random.Random(0)

                def __iter__(self):
                    while True:
                        yield self.rng.random()


            loader = DataLoader(Stream(), num_workers=2)
            """,
            """\
            import torch
            from torch.utils.data import DataLoader, Dataset


            class Crops(Dataset):
                def __init__(self):
                    self.g = torch.Generator().manual_seed(0)

                def __getitem__(self, index):
                    return torch.randint(0, 32, (2,), generator=self.g)


            loader = DataLoader(Crops(), num_workers=2)
            """,
            """\
            import numpy as np
            from torch.utils.data import DataLoader, Dataset


            class Base(Dataset[int]):
                def __init__(self):
                    self.state = np.random.RandomState(0)

                def _jitter(self, value):
                    return value + self.state.rand()


            class Child(Base):
                def __getitem__(self, index):
                    return self._jitter(index)


            loader = DataLoader(Child(), num_workers=2)
            """,
            """\
            import numpy as np
            from torch.utils.data import DataLoader, Dataset


            class Noisy(Dataset):
                rng = np.random.default_rng(0)

                def __getitem__(self, index):
                    rng = self.rng
                    return augment(index, rng)


            loader = DataLoader(Noisy(), num_workers=2)
            """,
            """\
            import numpy as np
            from torch.utils.data import DataLoader, Dataset


            class Noisy(Dataset):
                def __init__(self, seed):
                    rng = np.random.default_rng(seed)
                    self.rng = rng

                def __getitems__(self, indices):
                    return self.rng.permutation(indices)


            loader = DataLoader(Noisy(0), num_workers=2)
            """,
        ],
        ids=[
            "aliased-imports",
            "iterable-random-Random",
            "torch-generator-keyword",
            "base-class-helper-RandomState",
            "class-attribute-local-alias",
            "bound-name-getitems",
        ],
    )
    def test_rng_object_shapes_are_flagged(self, source):
        assert [code for code, _, _ in findings(source, {"SL202"})] == ["SL202"]

    def test_two_rng_attributes_are_named_in_one_finding(self):
        source = """\
            import random
            import torch
            from torch.utils.data import DataLoader, Dataset


            class Pairs(Dataset):
                def __init__(self):
                    self.rng = random.Random(0)
                    self.g = torch.Generator()

                def __getitem__(self, index):
                    return self.rng.random(), torch.rand(1, generator=self.g)


            loader = DataLoader(Pairs(), num_workers=2)
            """
        (diagnostic,) = lint(source, {"SL202"}).diagnostics
        assert "`self.rng` (`random.Random`) and `self.g` (`torch.Generator`)" in diagnostic.message
        assert "reseeds them" in diagnostic.message
        assert (
            "info.dataset.rng.seed(info.seed); info.dataset.g.manual_seed(info.seed)"
            in diagnostic.help
        )

    @pytest.mark.parametrize(
        "loader",
        [
            "loader = DataLoader(Noisy())\n",
            "loader = DataLoader(Noisy(), num_workers=0)\n",
            "WORKERS = 0\nloader = DataLoader(Noisy(), num_workers=WORKERS)\n",
            "loader = DataLoader(Noisy(), **loader_kwargs, num_workers=2)\n",
            "def make(ds):\n    return DataLoader(ds, num_workers=2)\n",
            """\
def seed_worker(worker_id):
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)


loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)
""",
            """\
def seed_worker(worker_id):
    get_worker_info().dataset.rng = np.random.default_rng(torch.initial_seed())


loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)
""",
            "loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=lambda _: setattr(\n"
            "    get_worker_info().dataset, 'rng', np.random.default_rng(torch.initial_seed())))\n",
            "from myproject.workers import seed_worker\n"
            "loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)\n",
        ],
        ids=[
            "num-workers-absent",
            "num-workers-0",
            "num-workers-name-bound-to-0",
            "star-kwargs",
            "dataset-parameter",
            "worker-init-reassigns-from-worker-info",
            "worker-init-uses-initial-seed",
            "lambda-setattr",
            "imported-worker-init-fn",
        ],
    )
    def test_loaders_left_alone(self, loader):
        assert findings(NOISY + loader, {"SL202"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            # The worker_init_fn reseeds through a dataset method, a partial, or an alias.
            """\
            import functools
            import torch
            from torch.utils.data import DataLoader, Dataset, get_worker_info


            class Crops(Dataset):
                def __init__(self):
                    self.g = torch.Generator()

                def reseed(self, seed):
                    self.g.manual_seed(seed)

                def __getitem__(self, index):
                    return torch.rand(1, generator=self.g)


            def seed_worker(worker_id, offset):
                info = get_worker_info()
                info.dataset.reseed(info.seed + offset)


            loader = DataLoader(Crops(), num_workers=2, worker_init_fn=functools.partial(seed_worker, offset=1))
            """,
            """\
            import numpy as np
            from torch.utils.data import DataLoader, Dataset, get_worker_info


            class Noisy(Dataset):
                def __init__(self):
                    self.state = np.random.RandomState(0)

                def __getitem__(self, index):
                    return self.state.rand()


            def seed_worker(worker_id):
                state = get_worker_info().dataset.state
                state.seed(get_worker_info().seed % 2**32)


            loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)
            """,
            # Stored but never drawn from in the worker.
            """\
            import numpy as np
            from torch.utils.data import DataLoader, Dataset


            class Shuffled(Dataset):
                def __init__(self, items):
                    self.rng = np.random.default_rng(0)
                    self.items = self.rng.permutation(items)

                def __getitem__(self, index):
                    return self.items[index]


            loader = DataLoader(Shuffled(range(8)), num_workers=2)
            """,
            # Made from the index inside __getitem__, locally or on self, or reseeded there.
            """\
            import numpy as np
            import torch
            from torch.utils.data import DataLoader, Dataset


            class PerIndex(Dataset):
                def __init__(self):
                    self.rng = np.random.default_rng(0)
                    self.g = torch.Generator()

                def __getitem__(self, index):
                    self.rng = np.random.default_rng(index)
                    self.g.manual_seed(index)
                    local = np.random.default_rng(index)
                    return self.rng.normal() + local.normal() + torch.rand(1, generator=self.g)


            loader = DataLoader(PerIndex(), num_workers=2)
            """,
            # Made lazily, in the worker.
            """\
            import numpy as np
            from torch.utils.data import DataLoader, Dataset, get_worker_info


            class Lazy(Dataset):
                def __init__(self):
                    self.rng = None

                def __getitem__(self, index):
                    if self.rng is None:
                        self.rng = np.random.default_rng(get_worker_info().seed)
                    return self.rng.normal()


            loader = DataLoader(Lazy(), num_workers=2)
            """,
            # Global np.random and random are seeded per worker since torch 1.9.
            """\
            import random
            import numpy as np
            from torch.utils.data import DataLoader, Dataset


            class GlobalNoise(Dataset):
                def __getitem__(self, index):
                    return np.random.normal() + random.random()


            loader = DataLoader(GlobalNoise(), num_workers=2)
            """,
            # Look-alikes: another library's DataLoader, another library's default_rng, a non-dataset class.
            """\
            import numpy as np
            from mylib.loading import DataLoader
            from torch.utils.data import Dataset


            class Noisy(Dataset):
                def __init__(self):
                    self.rng = np.random.default_rng(0)

                def __getitem__(self, index):
                    return self.rng.normal()


            loader = DataLoader(Noisy(), num_workers=2)
            """,
            """\
            from mylib.random import default_rng
            from torch.utils.data import DataLoader, Dataset


            class Noisy(Dataset):
                def __init__(self):
                    self.rng = default_rng(0)

                def __getitem__(self, index):
                    return self.rng.normal()


            loader = DataLoader(Noisy(), num_workers=2)
            """,
        ],
        ids=[
            "dataset-method-via-partial",
            "alias-reseed-in-worker-init",
            "never-drawn",
            "made-in-getitem",
            "lazy-in-worker",
            "global-generators",
            "other-dataloader",
            "other-default-rng",
        ],
    )
    def test_code_left_alone(self, source):
        assert findings(source, {"SL202"}) == []

    def test_module_function_named_like_a_dataset_method_is_not_reseeding(self):
        source = """\
            import random
            from torch.utils.data import DataLoader, Dataset


            class Noisy(Dataset):
                def __init__(self):
                    self.rng = random.Random(0)

                def seed(self, value):
                    self.rng.seed(value)

                def __getitem__(self, index):
                    return self.rng.random()


            def seed_worker(worker_id):
                random.seed(worker_id)


            loader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)
            """
        assert findings(source, {"SL202"}) == [("SL202", 20, 10)]

    def test_fix_is_display_only_and_changes_nothing(self):
        source = NOISY + "loader = DataLoader(Noisy(), num_workers=2)\n"
        result = lint(source, {"SL202"}, fix="unsafe")
        (diagnostic,) = result.diagnostics
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert "get_worker_info()" in diagnostic.fix.message
        assert result.source.text == dedent(source)

    def test_noqa_suppresses(self):
        source = NOISY + "loader = DataLoader(Noisy(), num_workers=2)  # noqa: SL202\n"
        assert findings(source, {"SL202"}) == []

    def test_recommended_worker_init_fn_silences_the_rule(self):
        (diagnostic,) = lint(
            NOISY + "loader = DataLoader(Noisy(), num_workers=2)\n", {"SL202"}
        ).diagnostics
        body = diagnostic.help.split("def seed_worker(worker_id): ", 1)[1].split("` and pass", 1)[0]
        function = "def seed_worker(worker_id):\n" + "".join(
            f"    {line.strip()}\n" for line in body.split(";")
        )
        source = (
            NOISY
            + function
            + "\n\nloader = DataLoader(Noisy(), num_workers=2, worker_init_fn=seed_worker)\n"
        )
        libcst.parse_module(source)
        assert findings(source, {"SL202", "SL203"}) == []


# ============================================================================ SL203
LOADER = "loader = DataLoader(dataset, num_workers=2, worker_init_fn=seed_worker)\n"


class TestSL203ConstantWorkerSeed:
    def test_constant_global_seed_is_flagged_at_the_seeding_call(self):
        source = """\
            import numpy as np
            from torch.utils.data import DataLoader


            def seed_worker(worker_id):
                np.random.seed(0)


            loader = DataLoader(dataset, num_workers=2, worker_init_fn=seed_worker)
            """
        (diagnostic,) = lint(source, {"SL203"}).diagnostics
        assert (diagnostic.start.row, diagnostic.start.column) == (6, 5)
        assert diagnostic.message.startswith(
            "`np.random.seed` in the `worker_init_fn` `seed_worker` gives every worker the same seed"
        )
        assert "all workers draw the same random numbers" in diagnostic.message
        assert "torch 1.9" in diagnostic.help
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY

    @pytest.mark.parametrize(
        "source, row, column",
        [
            (
                """\
            import random
            from torch.utils.data import DataLoader
            loader = DataLoader(dataset, num_workers=2, worker_init_fn=lambda _: random.seed(42))
            """,
                3,
                70,
            ),
            (
                """\
            import torch
            import torch.utils.data as tud
            SEED = 1234


            def init_fn(worker_id):
                torch.manual_seed(SEED)


            loader = tud.DataLoader(dataset, 2, True, None, None, 4, worker_init_fn=init_fn)
            """,
                7,
                5,
            ),
            (
                """\
            import numpy.random as npr
            from torch.utils.data import DataLoader


            def seed_worker(worker_id):
                seed = int(args.seed)
                npr.seed(seed)


            """
                + LOADER,
                7,
                5,
            ),
            (
                """\
            import functools
            import numpy as np
            from torch.utils.data import DataLoader


            def seed_worker(worker_id, seed):
                np.random.seed(seed)


            loader = DataLoader(dataset, num_workers=2, worker_init_fn=functools.partial(seed_worker, seed=3))
            """,
                7,
                5,
            ),
            (
                """\
            from functools import partial
            import numpy as np
            from torch.utils.data import DataLoader


            def seed_worker(worker_id, seed):
                np.random.seed(seed)


            init = partial(seed_worker, seed=3)
            loader = DataLoader(dataset, num_workers=2, worker_init_fn=init)
            """,
                7,
                5,
            ),
            (
                """\
            import random
            from torch.utils.data import DataLoader


            class Experiment:
                def __init__(self):
                    self.seed = 7

                def seed_worker(self, worker_id):
                    random.seed(self.seed)

                def loader(self):
                    return DataLoader(dataset, num_workers=2, worker_init_fn=self.seed_worker)
            """,
                10,
                9,
            ),
            (
                """\
            import numpy as np
            from torch.utils.data import get_worker_info


            def seed_worker(worker_id):
                info = get_worker_info()
                info.dataset.rng = np.random.default_rng(info.dataset.base_seed)


            trainer = Trainer(worker_init_fn=seed_worker)
            """,
                7,
                24,
            ),
            (
                """\
            import torch
            from torch.utils.data import DataLoader, get_worker_info


            def seed_worker(worker_id):
                get_worker_info().dataset.g.manual_seed(1234)


            """
                + LOADER,
                6,
                5,
            ),
            (
                """\
            import torch
            from torch.utils.data import DataLoader, get_worker_info


            def seed_worker(worker_id):
                get_worker_info().dataset.g = torch.Generator()


            """
                + LOADER,
                6,
                35,
            ),
            (
                """\
            from lightning import seed_everything
            from torch.utils.data import DataLoader
            loader = DataLoader(dataset, num_workers=2, worker_init_fn=lambda wid: seed_everything(7))
            """,
                3,
                72,
            ),
        ],
        ids=[
            "lambda-random",
            "module-constant-aliased-loader",
            "local-name-from-args",
            "partial-keyword",
            "partial-through-name",
            "method-self-seed",
            "dataset-rng-from-dataset-field-any-call",
            "generator-manual-seed",
            "fresh-torch-generator",
            "seeding-helper-in-lambda",
        ],
    )
    def test_constant_seeds_are_flagged(self, source, row, column):
        assert findings(source, {"SL203"}) == [("SL203", row, column)]

    def test_object_reseed_message_and_help(self):
        source = (
            """\
            import numpy as np
            from torch.utils.data import DataLoader, get_worker_info


            def seed_worker(worker_id):
                get_worker_info().dataset.rng = np.random.default_rng(0)


            """
            + LOADER
        )
        (diagnostic,) = lint(source, {"SL203"}).diagnostics
        assert "gives every worker's copy of the RNG the same seed" in diagnostic.message
        assert "get_worker_info().seed" in diagnostic.help

    @pytest.mark.parametrize(
        "body",
        [
            "np.random.seed(SEED + worker_id)",
            "np.random.seed(torch.initial_seed() % 2**32)",
            "random.seed(get_worker_info().seed)",
            "info = get_worker_info()\n    random.seed(info.id + 100 * SEED)",
            "seed = torch.initial_seed()\n    seed = seed % 2**32\n    np.random.seed(seed)",
            "np.random.seed()",
            "np.random.seed(make_seed())",
            "random.seed(os.getpid())",
            "random.seed(np.random.randint(2**31))",
            "np.random.seed(hash((SEED, worker_id)) % 2**32)",
            "get_worker_info().dataset.rng = np.random.default_rng(get_worker_info().seed)",
            "get_worker_info().dataset.rng = np.random.default_rng()",
            "get_worker_info().dataset.g.manual_seed(torch.initial_seed())",
        ],
        ids=[
            "worker-id",
            "initial-seed",
            "worker-info-seed",
            "worker-info-id",
            "reassigned-name",
            "no-seed",
            "unknown-call",
            "pid",
            "global-draw",
            "builtin-of-worker-id",
            "dataset-rng-from-info-seed",
            "dataset-rng-entropy",
            "generator-from-initial-seed",
        ],
    )
    def test_worker_dependent_seeds_are_left_alone(self, body):
        source = (
            dedent("""\
            import os
            import random
            import numpy as np
            import torch
            from torch.utils.data import DataLoader, get_worker_info

            SEED = 3


            """)
            + f"def seed_worker(worker_id):\n    {body}\n\n\n"
            + LOADER
        )
        assert findings(source, {"SL203"}, path="train.py") == []

    def test_worker_id_through_star_args_is_worker_dependent(self):
        source = (
            """\
            import numpy as np
            from torch.utils.data import DataLoader


            def seed_worker(*args):
                np.random.seed(1000 + args[0])


            """
            + LOADER
        )
        assert findings(source, {"SL203"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import functools
            import numpy as np
            from torch.utils.data import DataLoader


            def seed_worker(rank, worker_id):
                np.random.seed(rank * 8 + worker_id)


            loader = DataLoader(dataset, num_workers=2, worker_init_fn=functools.partial(seed_worker, 0))
            """,
            """\
            import numpy as np
            from torch.utils.data import DataLoader
            from myproject.workers import seed_worker
            """
            + LOADER,
            """\
            import numpy as np
            from torch.utils.data import DataLoader
            from myproject.workers import seed_worker


            def reset(worker_id):
                np.random.seed(0)


            reset(0)
            """
            + LOADER,
            """\
            import numpy as np
            from torch.utils.data import DataLoader
            init = lambda wid: np.random.seed(wid)
            loader = DataLoader(dataset, num_workers=2, worker_init_fn=init)
            """,
            """\
            from mylib import rng
            from torch.utils.data import DataLoader


            def seed_worker(worker_id):
                rng.seed(0)


            """
            + LOADER,
            """\
            from torch.utils.data import DataLoader, Dataset


            class Noisy(Dataset):
                def seed(self, base):
                    self.base = base


            dataset = Noisy()
            loader = DataLoader(dataset, num_workers=2, worker_init_fn=lambda wid: dataset.seed(0))
            """,
            """\
            from common.utils import set_seed
            from torch.utils.data import DataLoader


            def seed_worker(worker_id):
                set_seed(0)  # what it seeds is not known here: taken to seed, never said to


            """
            + LOADER,
        ],
        ids=[
            "partial-positional-shift",
            "imported-worker-init",
            "not-a-worker-init-fn",
            "lambda-through-name",
            "module-seed-function-of-other-library",
            "method-of-a-module-class-not-judged",
            "helper-seedlint-cannot-read",
        ],
    )
    def test_code_left_alone(self, source):
        assert findings(source, {"SL203"}) == []

    def test_fix_is_display_only_and_changes_nothing(self):
        source = """\
            import random
            from torch.utils.data import DataLoader
            loader = DataLoader(dataset, num_workers=2, worker_init_fn=lambda _: random.seed(42))
            """
        result = lint(source, {"SL203"}, fix="unsafe")
        assert [d.code for d in result.diagnostics] == ["SL203"]
        assert result.source.text == dedent(source)

    def test_each_worker_init_fn_is_reported_once(self):
        source = """\
            import random
            from torch.utils.data import DataLoader


            def seed_worker(worker_id):
                random.seed(0)


            train = DataLoader(dataset, num_workers=2, worker_init_fn=seed_worker)
            val = DataLoader(dataset, num_workers=2, worker_init_fn=seed_worker)
            """
        assert findings(source, {"SL203"}) == [("SL203", 6, 5)]
