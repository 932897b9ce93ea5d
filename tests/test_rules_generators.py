"""Behaviour of SL107 (generator-ignores-seed) and SL204 (unseeded-random-split).

Every source below starts on row 1 (the `\\` after the opening quotes); columns are 1-based.
"""

from __future__ import annotations

import textwrap

import libcst
import pytest
from conftest import lint

from seedlint.analysis import catalog
from seedlint.analysis.context import AnalysisSettings
from seedlint.diagnostics import Applicability


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def fixed(source: str, codes, fix: str = "unsafe") -> str:
    return lint(source, codes, fix=fix).source.text


def assert_fix_is_stable(source: str, code: str) -> str:
    """Apply the unsafe fix: it parses, leaves no finding of `code`, and applying it again changes nothing."""
    once = fixed(source, {code})
    libcst.parse_module(once)
    assert lint(once, {code}).diagnostics == []
    assert fixed(once, {code}) == once
    return once


# ============================================================================ SL107
class TestSL107GeneratorIgnoresSeed:
    @pytest.mark.parametrize(
        "imports, creation, column",
        [
            ("import torch", "g = torch.Generator()", 5),
            ("import torch as t", 'g = t.Generator(device="cpu")', 5),
            ("from torch import Generator as Gen", "g = Gen()", 5),
            ("import torch", "g: torch.Generator = torch.Generator()", 22),
            (
                "import torch",
                "g = torch.Generator(device=device)",
                5,
            ),  # device unknown, not visibly CUDA
            (
                "import torch",
                "loader = torch.utils.data.DataLoader(ds, generator=torch.Generator())",
                52,
            ),
        ],
        ids=[
            "plain",
            "aliased-module",
            "from-import-alias",
            "annotated",
            "unknown-device",
            "inline-in-torch-call",
        ],
    )
    def test_unseeded_generator_in_a_seeding_file_is_flagged(self, imports, creation, column):
        source = f"{imports}\nimport torch\ntorch.manual_seed(0)\n{creation}\n"
        assert findings(source, {"SL107"}) == [("SL107", 4, column)]

    def test_message_says_it_ignores_the_scripts_seed(self):
        (diagnostic,) = lint(
            "import torch\ntorch.manual_seed(0)\ng = torch.Generator()\n", {"SL107"}
        ).diagnostics
        assert "fixed constant" in diagnostic.message
        assert "ignores the script's seed" in diagnostic.message

    def test_generator_in_a_method_nothing_calls_is_flagged_when_the_file_seeds(self):
        source = """\
            import torch
            from torch.utils.data import DataLoader

            class DataModule:
                def train_dataloader(self):
                    return DataLoader(self.data, shuffle=True, generator=torch.Generator())

            torch.manual_seed(0)
            """
        assert findings(source, {"SL107"}) == [("SL107", 6, 62)]

    @pytest.mark.parametrize(
        "code",
        [
            "g = torch.Generator()\ng.manual_seed(seed)",
            "g = torch.Generator().manual_seed(seed)",
            "g = torch.Generator()\ng.set_state(torch.get_rng_state())",
            "class A:\n    def __init__(self):\n        self.g = torch.Generator()\n"
            "    def reset(self, seed):\n        self.g.manual_seed(seed)",
            "def make():\n    return torch.Generator()",
            "def make():\n    g = torch.Generator()\n    return g",
            "def make():\n    g = torch.Generator()\n    return g, 1",
            "class A:\n    def __init__(self):\n        g = torch.Generator()\n        self.g = g\n"
            "    def reset(self, seed):\n        self.g.manual_seed(seed)",
            "def seed_it(g):\n    g.manual_seed(1)\nh = torch.Generator()\nseed_it(h)",
            "h = torch.Generator()\nhelpers.seed_generator(h, seed)",
            "gens = [torch.Generator() for _ in range(4)]",
            "loader = make_loader(ds, torch.Generator())",
            "rng = np.random.Generator(np.random.PCG64(seed))",
            "from numpy.random import Generator\nrng = Generator(bits)",
            "class Generator:\n    pass\ng = Generator()",
        ],
        ids=[
            "seeded-later",
            "chained",
            "set_state",
            "attribute-seeded-in-another-method",
            "returned",
            "returned-by-name",
            "returned-in-tuple",
            "stored-under-another-name",
            "passed-to-local-helper",
            "passed-to-other-module",
            "comprehension",
            "passed-to-unknown-callee",
            "numpy-generator",
            "numpy-generator-from-import",
            "local-class",
        ],
    )
    def test_seeded_escaping_or_look_alike_generators_are_not_flagged(self, code):
        source = f"import numpy as np\nimport torch\nseed = 0\ntorch.manual_seed(seed)\n{code}\n"
        assert findings(source, {"SL107"}) == []

    def test_not_flagged_in_a_file_that_seeds_nothing(self):
        assert (
            findings(
                "import torch\ng = torch.Generator()\nx = torch.randn(3, generator=g)\n", {"SL107"}
            )
            == []
        )

    def test_seeding_through_a_configured_helper_without_seed_in_its_name_counts(self):
        settings = AnalysisSettings(
            seed_functions={"myproj.utils.fix_everything": catalog.ALL_TORCH}
        )
        source = "import torch\nfrom myproj.utils import fix_everything\nfix_everything(3)\ng = torch.Generator()\n"
        assert findings(source, {"SL107"}, settings=settings) == [("SL107", 4, 5)]
        assert lint(source, {"SL107"}, settings=settings, fix="unsafe").source.text.endswith(
            "g = torch.Generator().manual_seed(3)\n"
        )

    def test_generator_seed_is_sl106_not_sl107(self):
        source = "import torch\ntorch.manual_seed(0)\ng = torch.Generator()\ng.seed()\n"
        assert findings(source, {"SL106", "SL107"}) == [("SL106", 4, 1)]

    @pytest.mark.parametrize(
        "creation",
        ['g = torch.Generator(device="cuda")', 'g = torch.Generator("cuda:1")'],
    )
    def test_cuda_generator_is_sl102_only(self, creation):
        source = f"import torch\ntorch.manual_seed(0)\n{creation}\nx = torch.randn(3, device='cuda', generator=g)\n"
        assert findings(source, {"SL102", "SL107"}) == [("SL102", 3, 5)]

    def test_fix_chains_the_module_seed(self):
        source = """\
            import torch
            seed = 3
            torch.manual_seed(seed)
            g = torch.Generator()  # data order
            """
        assert assert_fix_is_stable(source, "SL107") == textwrap.dedent("""\
            import torch
            seed = 3
            torch.manual_seed(seed)
            g = torch.Generator().manual_seed(seed)  # data order
            """)
        (diagnostic,) = lint(source, {"SL107"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.UNSAFE

    def test_fix_uses_the_seed_of_the_flow_that_makes_the_generator(self):
        source = """\
            import torch
            from torch.utils.data import DataLoader

            def main(args):
                torch.manual_seed(args.seed)
                loader = DataLoader(
                    args.data,
                    shuffle=True,
                    generator=torch.Generator(),
                )
            """
        assert (
            "        generator=torch.Generator().manual_seed(args.seed),\n"
            in assert_fix_is_stable(source, "SL107")
        )

    def test_fix_reuses_a_helper_seed_literal(self):
        source = "import torch\nfrom lightning import seed_everything\nseed_everything(42)\ng = torch.Generator()\n"
        assert assert_fix_is_stable(source, "SL107").endswith(
            "g = torch.Generator().manual_seed(42)\n"
        )

    @pytest.mark.parametrize(
        "source",
        [
            # the seed is computed after the generator is made
            "import torch\ng = torch.Generator()\nseed = 1\ntorch.manual_seed(seed)\n",
            # the seed is a parameter of the seeding helper, meaningless where the generator is made
            "import torch\ndef set_seed(s):\n    torch.manual_seed(s)\nset_seed(1)\ng = torch.Generator()\n",
            # only NumPy is seeded: there is no torch seed to reuse
            "import numpy as np\nimport torch\nnp.random.seed(0)\ng = torch.Generator()\n",
        ],
        ids=["seed-defined-later", "helper-parameter", "numpy-seed-only"],
    )
    def test_no_fix_without_a_torch_seed_usable_at_the_generator(self, source):
        (diagnostic,) = lint(source, {"SL107"}).diagnostics
        assert diagnostic.fix is None
        assert fixed(source, {"SL107"}) == source


# ============================================================================ SL204
class TestSL204UnseededRandomSplit:
    @pytest.mark.parametrize(
        "imports, call, column",
        [
            ("from torch.utils.data import random_split", "random_split(ds, [8, 2])", 14),
            ("import torch", "torch.utils.data.random_split(ds, [8, 2])", 14),
            ("import torch.utils.data as tud", "tud.random_split(ds, [0.8, 0.2])", 14),
            ("from torch.utils.data.dataset import random_split as split", "split(ds, [8, 2])", 14),
            ("from torch.utils.data import RandomSampler", "RandomSampler(ds)", 14),
            (
                "from torch.utils.data.sampler import RandomSampler as RS",
                "RS(ds, replacement=True)",
                14,
            ),
            ("from torch.utils import data", "data.SubsetRandomSampler(indices)", 14),
            (
                "from torch.utils.data import WeightedRandomSampler",
                "WeightedRandomSampler(w, 10, True)",
                14,
            ),
        ],
        ids=[
            "from-import",
            "dotted",
            "module-alias",
            "dataset-module-alias",
            "RandomSampler",
            "sampler-module-alias",
            "SubsetRandomSampler",
            "WeightedRandomSampler",
        ],
    )
    def test_flagged_in_a_file_that_seeds_nothing(self, imports, call, column):
        source = f"{imports}\nimport torch\ntrain, val = {call}\n"
        assert findings(source, {"SL204"}) == [("SL204", 3, column)]

    def test_flagged_in_a_main_function_the_script_runs(self):
        source = """\
            from torch.utils.data import random_split
            def main():
                train, val = random_split(ds, [8, 2])
            if __name__ == "__main__":
                main()
            """
        assert findings(source, {"SL204"}) == [("SL204", 3, 18)]

    def test_library_function_nothing_here_calls_is_left_to_its_callers(self):
        # Distilled from a minGPT-like trainer module: its caller (another file) seeds torch first.
        source = """\
            import torch
            class Trainer:
                def run(self, data):
                    return list(torch.utils.data.RandomSampler(data))
            """
        assert findings(source, {"SL204"}) == []

    def test_messages_name_the_split_or_the_order(self):
        source = """\
            from torch.utils.data import RandomSampler, random_split
            train, val = random_split(ds, [8, 2])
            sampler = RandomSampler(train)
            """
        split, sampler = lint(source, {"SL204"}).diagnostics
        assert "global torch CPU generator" in split.message
        assert "the split changes on every run" in split.message
        assert "the order it samples changes on every run" in sampler.message

    def test_no_fix_without_a_seed_in_the_script(self):
        source = (
            "from torch.utils.data import random_split\ntrain, val = random_split(ds, [8, 2])\n"
        )
        (diagnostic,) = lint(source, {"SL204"}).diagnostics
        assert diagnostic.fix is None

    @pytest.mark.parametrize(
        "code",
        [
            "a, b = random_split(ds, [8, 2], generator=g)",
            "a, b = random_split(ds, [8, 2], generator=None)",
            "a, b = random_split(ds, [8, 2], g)",
            "s = RandomSampler(ds, False, None, g)",
            "s = SubsetRandomSampler(indices, g)",
            "a, b = random_split(*args)",
            "a, b = random_split(ds, [8, 2], **options)",
            "from sklearn.model_selection import train_test_split\na, b = train_test_split(ds)",
            "def random_split(ds, sizes):\n    return ds\na, b = random_split(ds, [8, 2])",
            "from mylib.data import random_split\na, b = random_split(ds, [8, 2])",
        ],
        ids=[
            "generator-keyword",
            "generator-None",
            "generator-positional",
            "sampler-generator-positional",
            "subset-sampler-generator-positional",
            "star-args",
            "star-kwargs",
            "sklearn",
            "local-function",
            "other-library",
        ],
    )
    def test_generator_given_or_look_alike_is_not_flagged(self, code):
        source = f"from torch.utils.data import RandomSampler, SubsetRandomSampler, random_split\n{code}\n"
        assert findings(source, {"SL204"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            from torch.utils.data import random_split
            torch.manual_seed(0)
            train, val = random_split(ds, [8, 2])
            """,
            """\
            import torch
            from torch.utils.data import DataLoader, RandomSampler
            def main():
                torch.manual_seed(0)
                loader = DataLoader(ds, sampler=RandomSampler(ds))
            main()
            """,
            """\
            import torch
            from torch.utils.data import RandomSampler
            sampler = RandomSampler(ds)  # draws when iterated, after the seeding
            torch.manual_seed(0)
            for index in sampler:
                pass
            """,
            """\
            from lightning import seed_everything
            from torch.utils.data import random_split
            seed_everything(7)
            train, val = random_split(ds, [8, 2])
            """,
            """\
            import torch
            from torch.utils.data import DataLoader, RandomSampler
            class DataModule:
                def train_dataloader(self):
                    return DataLoader(self.ds, sampler=RandomSampler(self.ds))
            torch.manual_seed(0)
            """,
        ],
        ids=[
            "seeded-before",
            "sampler-in-seeded-flow",
            "sampler-before-seeding",
            "helper-seeding",
            "method-nothing-calls-in-seeding-file",
        ],
    )
    def test_not_flagged_where_torch_is_seeded(self, source):
        assert findings(source, {"SL204"}) == []

    def test_split_before_seeding_is_sl104_only(self):
        source = """\
            import torch
            from torch.utils.data import random_split
            train, val = random_split(ds, [8, 2])
            torch.manual_seed(0)
            """
        assert findings(source, {"SL104", "SL204"}) == [("SL104", 3, 14)]

    def test_first_torch_draw_of_a_numpy_only_flow_is_sl105_and_the_next_is_sl204(self):
        source = """\
            import numpy as np
            from torch.utils.data import random_split
            np.random.seed(0)
            train, val = random_split(ds, [8, 2])
            left, right = random_split(val, [1, 1])
            """
        assert findings(source, {"SL105", "SL204"}) == [("SL105", 4, 14), ("SL204", 5, 15)]

    def test_cuda_only_seeding_is_flagged_and_fixed_with_its_seed(self):
        source = """\
            import torch
            from torch.utils.data import random_split

            def main(seed):
                torch.cuda.manual_seed_all(seed)
                train, val = random_split(
                    ds,
                    [8, 2],  # sizes
                )

            main(0)
            """
        assert findings(source, {"SL204"}) == [("SL204", 6, 18)]
        assert assert_fix_is_stable(source, "SL204") == textwrap.dedent("""\
            import torch
            from torch.utils.data import random_split

            def main(seed):
                torch.cuda.manual_seed_all(seed)
                train, val = random_split(
                    ds,
                    [8, 2], generator=torch.Generator().manual_seed(seed),  # sizes
                )

            main(0)
            """)

    def test_fix_adds_import_torch_when_missing(self):
        source = """\
            from torch.utils.data import RandomSampler
            import torch.cuda as tc
            tc.manual_seed_all(5)
            sampler = RandomSampler(ds)
            """
        assert assert_fix_is_stable(source, "SL204") == textwrap.dedent("""\
            from torch.utils.data import RandomSampler
            import torch.cuda as tc
            import torch
            tc.manual_seed_all(5)
            sampler = RandomSampler(ds, generator=torch.Generator().manual_seed(5))
            """)
        (diagnostic,) = lint(source, {"SL204"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.UNSAFE

    def test_fixed_generator_is_not_reported_by_sl107(self):
        source = "import torch\ntorch.cuda.manual_seed(1)\na, b = torch.utils.data.random_split(ds, [8, 2])\n"
        once = fixed(source, {"SL204"})
        assert "generator=torch.Generator().manual_seed(1)" in once
        assert findings(once, {"SL107", "SL204"}) == []

    def test_no_fix_when_the_seed_is_not_defined_at_the_call(self):
        source = """\
            import torch
            from torch.utils.data import random_split
            def set_seed(s):
                torch.cuda.manual_seed_all(s)
            set_seed(3)
            train, val = random_split(ds, [8, 2])
            """
        (diagnostic,) = lint(source, {"SL204"}).diagnostics
        assert diagnostic.fix is None
