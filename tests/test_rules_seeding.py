"""Behaviour of the seeding rules SL101-SL106: what each flags, what it leaves alone, its fixes.

Every source below starts on row 1 (the `\\` after the opening quotes), so the expected
(code, row, column) triples can be read off the snippet; columns are 1-based.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import libcst
import pytest
from conftest import codes_of, lint, make_linter, run_cli

from seedlint.analysis.context import AnalysisSettings
from seedlint.diagnostics import Applicability
from seedlint.selection import default_codes


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def fixed(source: str, codes, fix: str = "safe", **kwargs) -> str:
    return lint(source, codes, fix=fix, **kwargs).source.text


def fix_bytes(data: bytes, codes, fix: str = "safe") -> str:
    """Fix raw bytes (no dedent), to keep CRLF line endings and tab indentation byte-exact."""
    return make_linter(codes).lint(Path("train.py"), data, fix).source.text


def comments(text: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT]


# ============================================================================ SL101
class TestSL101CpuGeneratorUnseeded:
    @pytest.mark.parametrize(
        "source",
        [
            "import torch\ntorch.cuda.manual_seed_all(0)\n",
            "import torch\ntorch.cuda.manual_seed(0)\n",
            "from torch.cuda import manual_seed_all as seed_gpus\nseed_gpus(0)\n",
            "import torch.cuda as tc\ntc.manual_seed_all(0)\n",
        ],
        ids=["manual_seed_all", "manual_seed", "from-import-alias", "module-alias"],
    )
    def test_cuda_only_seeding_is_flagged_at_the_cuda_call(self, source):
        assert findings(source, {"SL101"}) == [("SL101", 2, 1)]

    def test_torch_private_spelling_of_the_cpu_generator_seeds_the_cpu(self):
        # Distilled from torch/random.py's `_manual_seed_impl`.
        source = """\
            import torch
            from torch._C import default_generator
            def manual_seed(seed):
                torch.cuda.manual_seed_all(seed)
                return default_generator.manual_seed(seed)
            """
        assert codes_of(source, {"SL101"}) == []

    def test_message_says_the_cpu_generator_is_unseeded(self):
        (diagnostic,) = lint("import torch\ntorch.cuda.manual_seed_all(0)\n", {"SL101"}).diagnostics
        assert "`torch.cuda.manual_seed_all`" in diagnostic.message
        assert "CPU generator" in diagnostic.message

    def test_cuda_seeding_inside_a_called_helper_is_flagged_inside_the_helper(self):
        source = """\
            import torch


            def seed_gpus(seed):
                torch.cuda.manual_seed_all(seed)


            seed_gpus(0)
            """
        assert findings(source, {"SL101"}) == [("SL101", 5, 5)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            torch.manual_seed(0)
            torch.cuda.manual_seed_all(0)
            """,
            """\
            import torch
            torch.cuda.manual_seed_all(0)
            torch.manual_seed(0)
            """,
            """\
            import torch


            def set_seed(seed):
                torch.manual_seed(seed)
                torch.cuda.manual_seed_all(seed)


            set_seed(0)
            """,
            """\
            import torch


            def seed_cpu(seed):
                torch.manual_seed(seed)


            seed_cpu(1)
            torch.cuda.manual_seed(1)
            """,
            """\
            import torch
            from lightning import seed_everything
            seed_everything(42)
            torch.cuda.manual_seed_all(42)
            """,
            """\
            import torch
            import transformers
            transformers.set_seed(0)
            torch.cuda.manual_seed(0)
            """,
            """\
            import torch
            if args.seed is not None:
                torch.manual_seed(args.seed)
                torch.cuda.manual_seed_all(args.seed)
            """,
            """\
            import torch
            x = torch.randn(3, device="cuda")
            """,
        ],
        ids=[
            "manual_seed-first",
            "manual_seed-after",
            "helper-seeds-both",
            "helper-seeds-cpu",
            "seed_everything",
            "transformers.set_seed",
            "if-args-seed",
            "no-seeding",
        ],
    )
    def test_not_flagged_when_the_cpu_generator_is_seeded_too(self, source):
        assert codes_of(source, {"SL101"}) == []

    def test_fix_inserts_manual_seed_with_the_same_seed_before_the_cuda_call(self):
        source = """\
            import torch
            # seed the GPUs
            torch.cuda.manual_seed_all(args.seed)  # all devices
            model = torch.nn.Linear(2, 2)
            """
        assert fixed(source, {"SL101"}) == (
            "import torch\n"
            "# seed the GPUs\n"
            "torch.manual_seed(args.seed)\n"
            "torch.cuda.manual_seed_all(args.seed)  # all devices\n"
            "model = torch.nn.Linear(2, 2)\n"
        )

    def test_fix_goes_outside_an_is_available_guard(self):
        source = """\
            import torch
            seed = 1
            if torch.cuda.is_available():
                torch.cuda.manual_seed_all(seed)
            """
        assert fixed(source, {"SL101"}) == (
            "import torch\n"
            "seed = 1\n"
            "torch.manual_seed(seed)\n"
            "if torch.cuda.is_available():\n"
            "    torch.cuda.manual_seed_all(seed)\n"
        )

    def test_fix_adds_import_torch_when_nothing_binds_it(self):
        source = """\
            from torch.cuda import manual_seed as cuda_seed
            seed = 3
            cuda_seed(seed)
            """
        assert fixed(source, {"SL101"}) == (
            "from torch.cuda import manual_seed as cuda_seed\n"
            "import torch\n"
            "seed = 3\n"
            "torch.manual_seed(seed)\n"
            "cuda_seed(seed)\n"
        )

    def test_fix_adding_an_import_right_above_the_cuda_call_is_deterministic(self):
        script = (
            "from pathlib import Path\n"
            "from seedlint.analysis.context import AnalysisSettings\n"
            "from seedlint.linter import Linter\n"
            "from seedlint.rules import RULES\n"
            "source = b'from torch.cuda import manual_seed as cuda_seed\\ncuda_seed(3)\\n'\n"
            "result = Linter([RULES['SL101']()], AnalysisSettings(), {'SL101'}).lint(Path('train.py'), source, 'safe')\n"
            "print(repr(result.source.text))\n"
        )
        expected = repr(
            "from torch.cuda import manual_seed as cuda_seed\nimport torch\ntorch.manual_seed(3)\ncuda_seed(3)\n"
        )
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", script],
                stdout=subprocess.PIPE,
                text=True,
                cwd=Path(__file__).parent.parent,
                env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
            )
            for hash_seed in range(8)
        ]
        outputs = {run.communicate()[0].strip() for run in runs}
        assert outputs == {expected}

    def test_fix_keeps_crlf_and_tab_indentation(self):
        data = (
            b"import torch\r\n"
            b"def main(seed):\r\n"
            b"\tif torch.cuda.is_available():\r\n"
            b"\t\ttorch.cuda.manual_seed_all(seed)\r\n"
            b"\treturn seed\r\n"
            b"main(0)\r\n"
        )
        assert fix_bytes(data, {"SL101"}) == (
            "import torch\r\n"
            "def main(seed):\r\n"
            "\ttorch.manual_seed(seed)\r\n"
            "\tif torch.cuda.is_available():\r\n"
            "\t\ttorch.cuda.manual_seed_all(seed)\r\n"
            "\treturn seed\r\n"
            "main(0)\r\n"
        )


# ============================================================================ SL102
class TestSL102CudaSeedingGap:
    @pytest.mark.parametrize(
        "cuda_use",
        [
            "model = torch.nn.Linear(2, 2).cuda()",
            'x = torch.zeros(3, device="cuda")',
            'device = torch.device("cuda")',
            "model = torch.nn.DataParallel(net)",
        ],
        ids=[".cuda()", "device-string", "torch.device", "DataParallel"],
    )
    def test_a_default_generator_only_seeding_with_cuda_use_is_flagged(self, cuda_use):
        source = f"import torch\ntorch.default_generator.manual_seed(0)\n{cuda_use}\n"
        assert findings(source, {"SL102"}) == [("SL102", 2, 1)]

    def test_a_fix_uses_torch_manual_seed(self):
        source = """\
            import torch
            torch.random.default_generator.manual_seed(0)  # CPU only
            model = torch.nn.Linear(2, 2).cuda()
            """
        assert fixed(source, {"SL102"}) == (
            "import torch\ntorch.manual_seed(0)  # CPU only\nmodel = torch.nn.Linear(2, 2).cuda()\n"
        )

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            torch.default_generator.manual_seed(0)
            model = torch.nn.Linear(2, 2)
            """,
            """\
            import torch
            torch.default_generator.manual_seed(0)
            torch.manual_seed(0)
            model = torch.nn.Linear(2, 2).cuda()
            """,
        ],
        ids=["no-cuda-use", "manual_seed-too"],
    )
    def test_a_not_flagged_without_cuda_or_with_torch_manual_seed(self, source):
        assert codes_of(source, {"SL102"}) == []

    @pytest.mark.parametrize(
        "several_gpus",
        [
            "model = nn.DataParallel(nn.Linear(2, 2)).cuda()",
            'x = torch.zeros(3, device="cuda:1")',
            "for i in range(torch.cuda.device_count()):\n    x = torch.zeros(2).cuda()",
        ],
        ids=["DataParallel", "cuda:1", "device_count-loop"],
    )
    def test_b_current_device_seeding_with_several_gpus_is_flagged(self, several_gpus):
        source = f"import torch\nfrom torch import nn\ntorch.cuda.manual_seed(0)\n{several_gpus}\n"
        assert findings(source, {"SL102"}) == [("SL102", 3, 1)]

    def test_b_flagged_when_the_cpu_is_seeded_through_the_default_generator(self):
        source = """\
            import torch
            torch.default_generator.manual_seed(0)
            torch.cuda.manual_seed(0)
            model = torch.nn.DataParallel(torch.nn.Linear(2, 2)).cuda()
            """
        assert findings(source, {"SL102"}) == [("SL102", 3, 1)]

    def test_b_fix_uses_manual_seed_all(self):
        source = """\
            import torch
            from torch import nn
            torch.cuda.manual_seed(args.seed)  # current device
            model = nn.DataParallel(nn.Linear(2, 2)).cuda()
            """
        assert fixed(source, {"SL102"}) == (
            "import torch\n"
            "from torch import nn\n"
            "torch.cuda.manual_seed_all(args.seed)  # current device\n"
            "model = nn.DataParallel(nn.Linear(2, 2)).cuda()\n"
        )

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            torch.cuda.manual_seed(0)
            x = torch.zeros(2, device="cuda")
            y = torch.zeros(2, device="cuda:0")
            """,
            """\
            import torch
            from torch import nn
            torch.manual_seed(0)
            torch.cuda.manual_seed(0)
            model = nn.DataParallel(nn.Linear(2, 2))
            """,
            """\
            import torch
            from torch import nn
            torch.cuda.manual_seed(0)
            torch.cuda.manual_seed_all(0)
            model = nn.DataParallel(nn.Linear(2, 2))
            """,
        ],
        ids=["single-gpu", "manual_seed-too", "manual_seed_all-too"],
    )
    def test_b_not_flagged_for_one_gpu_or_when_every_device_is_seeded(self, source):
        assert codes_of(source, {"SL102"}) == []

    @pytest.mark.parametrize(
        "creation, column",
        [
            ('g = torch.Generator(device="cuda")', 5),
            ('g = torch.Generator(device=torch.device("cuda", 1))', 5),
            ('g = torch.Generator("cuda:0")', 5),
        ],
        ids=["keyword", "torch.device", "positional"],
    )
    def test_c_unseeded_cuda_generator_is_flagged_without_a_fix(self, creation, column):
        source = f'import torch\ntorch.manual_seed(0)\n{creation}\nx = torch.randn(3, generator=g, device="cuda")\n'
        (diagnostic,) = lint(source, {"SL102"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row, diagnostic.start.column) == (
            "SL102",
            3,
            column,
        )
        assert diagnostic.fix is None

    @pytest.mark.parametrize(
        "generator_code",
        [
            'g = torch.Generator(device="cuda")\ng.manual_seed(0)',
            'g = torch.Generator(device="cuda").manual_seed(1)',
            "g = torch.Generator()",
            'g = torch.Generator(device="cpu")',
        ],
        ids=["seeded-later", "seeded-chained", "cpu-default", "cpu-explicit"],
    )
    def test_c_seeded_or_cpu_generators_are_fine(self, generator_code):
        source = (
            f"import torch\ntorch.manual_seed(0)\n{generator_code}\nx = torch.zeros(1).cuda()\n"
        )
        assert codes_of(source, {"SL102"}) == []

    @pytest.mark.parametrize(
        "seeding",
        ["torch.cuda.manual_seed(0)", "torch.default_generator.manual_seed(0)"],
    )
    def test_no_cuda_use_means_no_sl102(self, seeding):
        source = f"import torch\nfrom torch import nn\n{seeding}\nmodel = nn.Linear(2, 2)\n"
        assert codes_of(source, {"SL102"}) == []


# ============================================================================ SL103
CUDA_PROGRAM = """\
import torch
torch.manual_seed(7)  # the seed
model = torch.nn.Linear(2, 2).cuda()
"""


class TestSL103ImplicitCudaSeed:
    def test_off_by_default(self):
        assert "SL103" not in default_codes()
        assert codes_of(CUDA_PROGRAM) == []

    def test_on_when_selected(self):
        assert findings(CUDA_PROGRAM, {"SL103"}) == [("SL103", 2, 1)]

    def test_message_says_manual_seed_already_seeds_cuda(self):
        (diagnostic,) = lint(CUDA_PROGRAM, {"SL103"}).diagnostics
        assert "already seeds every CUDA device" in diagnostic.message

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            torch.manual_seed(7)
            torch.cuda.manual_seed_all(7)
            model = torch.nn.Linear(2, 2).cuda()
            """,
            """\
            import torch
            torch.manual_seed(7)
            model = torch.nn.Linear(2, 2)
            """,
        ],
        ids=["manual_seed_all-present", "no-cuda-use"],
    )
    def test_silent_with_explicit_cuda_seeding_or_without_cuda(self, source):
        assert codes_of(source, {"SL103"}) == []

    def test_fix_inserts_manual_seed_all_after_the_call(self):
        assert fixed(CUDA_PROGRAM, {"SL103"}) == (
            "import torch\n"
            "torch.manual_seed(7)  # the seed\n"
            "torch.cuda.manual_seed_all(7)\n"
            "model = torch.nn.Linear(2, 2).cuda()\n"
        )

    def test_fix_through_an_alias_adds_import_torch(self):
        source = """\
            from torch import manual_seed as ms
            import torch.nn as nn
            ms(7)
            model = nn.DataParallel(nn.Linear(2, 2))
            """
        assert fixed(source, {"SL103"}) == (
            "from torch import manual_seed as ms\n"
            "import torch.nn as nn\n"
            "import torch\n"
            "ms(7)\n"
            "torch.cuda.manual_seed_all(7)\n"
            "model = nn.DataParallel(nn.Linear(2, 2))\n"
        )


# ============================================================================ SL104
@pytest.mark.parametrize(
    "load, codes",
    [
        ("model.load_state_dict(torch.load(path))", []),
        ("model.load_state_dict(torch.load(path), strict=False)", ["SL105"]),
    ],
    ids=["strict-load-after-the-branches", "partial-load"],
)
def test_a_model_built_on_either_branch_then_loaded_strictly_draws_nothing_that_matters(
    load, codes
):
    source = (
        "import random\nimport torch\nfrom torch import nn\n"
        "def main(path, small):\n    random.seed(0)\n    if small:\n"
        "        model = nn.Sequential(nn.Flatten(), nn.Linear(4, 2))\n    else:\n"
        "        model = nn.Linear(4, 2)\n"
        f"    {load}\n    print(model(torch.ones(1, 4)), random.random())\n"
        "if __name__ == '__main__':\n    main('best.pt', True)\n"
    )
    assert codes_of(source, {"SL105"}) == codes


class TestSL104RandomBeforeSeed:
    @pytest.mark.parametrize(
        "demo",
        [
            # a module called on a dummy input, the output displayed or dropped
            "net = torch.nn.Linear(4, 2)\nnet(torch.randn(1, 4).to('cpu'))\n",
            # a torch function's result as a statement of its own
            "a = torch.rand(3, 3)\nb = torch.rand(3, 3)\ntorch.matmul(a, b)\n",
            # a draw in a loop's body that only reaches a figure
            "for i in range(3):\n    k = torch.randint(0, 9, (1,)).item()\n    plt.title(str(k))\n",
            # a module function that only plots what it is given
            "def show(values, title=None):\n    plt.plot(values)\n    if title is not None:\n"
            "        plt.title(title)\nshow(torch.randn(10), title='noise')\n",
            # a grid of random images written for a person, and a logged value
            "save_image(torch.rand(4, 3, 8, 8), 'grid.png')\nlogging.info('%s', torch.rand(1))\n",
        ],
        ids=[
            "dummy-forward",
            "product-displayed",
            "loop-plotted",
            "plotting-helper",
            "image-and-log",
        ],
    )
    def test_a_draw_only_shown_before_the_seed_is_left_alone(self, demo):
        source = (
            "import logging\nimport matplotlib.pyplot as plt\nimport torch\n"
            "from torchvision.utils import save_image\n"
            + demo
            + "torch.manual_seed(0)\nmodel = torch.nn.Linear(4, 2)\n"
            "model(torch.ones(1, 4)).sum().backward()\n"
        )
        assert codes_of(source, {"SL104"}) == []

    @pytest.mark.parametrize(
        "kept, row",
        [
            # pushed into a buffer that training samples after the seed
            ("replay.push(torch.randn(4))\n", 4),
            # a helper that returns what it computes
            (
                "def scaled(values):\n    plt.plot(values)\n    return values * 2\n"
                "targets = scaled(torch.randn(10))\n",
                7,
            ),
            # saved to a file, which may be loaded back
            ("noise = torch.rand(3)\ntorch.save(noise, 'noise.pt')\n", 4),
        ],
        ids=["pushed", "returned", "saved"],
    )
    def test_a_draw_kept_before_the_seed_is_reported(self, kept, row):
        source = (
            "import matplotlib.pyplot as plt\nimport torch\nreplay = Buffer()\n"
            + kept
            + "torch.manual_seed(0)\nmodel = torch.nn.Linear(4, 2)\n"
            "model(replay.sample()).sum().backward()\n"
        )
        assert [(code, r) for code, r, _ in findings(source, {"SL104"})] == [("SL104", row)]

    @pytest.mark.parametrize(
        "source, row, column",
        [
            ("import torch\nx = torch.randn(3)\ntorch.manual_seed(0)\n", 2, 5),
            ("import torch\nmodel = torch.nn.Linear(4, 4)\ntorch.manual_seed(0)\n", 2, 9),
            (
                "import torch\nfrom torch import nn\nw = torch.empty(3, 3)\nnn.init.xavier_uniform_(w)\n"
                "torch.manual_seed(0)\n",
                4,
                1,
            ),
            (
                "import torch\ndef init(w):\n    w.normal_()\ninit(weight)\ntorch.manual_seed(0)\n",
                4,
                1,
            ),
            (
                "import torch\nfrom torch.utils.data import random_split\na, b = random_split(ds, [5, 5])\n"
                "torch.manual_seed(0)\n",
                3,
                8,
            ),
            ("from torch import manual_seed as ms\nimport torch\nx = torch.rand(2)\nms(0)\n", 3, 5),
            (
                "from numpy import random as npr\nimport numpy as np\na = npr.randint(0, 10)\nnp.random.seed(0)\n",
                3,
                5,
            ),
            (
                "from random import shuffle, seed\nitems = [1, 2, 3]\nshuffle(items)\nseed(0)\n",
                3,
                1,
            ),
            (
                'import torch\nx = torch.randn(3, device="cuda")\ntorch.cuda.manual_seed_all(0)\n',
                2,
                5,
            ),
        ],
        ids=[
            "torch.randn",
            "nn.Linear",
            "nn.init",
            "param.normal_",
            "random_split",
            "ms-alias",
            "npr-alias",
            "from-random-import-shuffle",
            "cuda-draw-cuda-seed",
        ],
    )
    def test_draw_before_seeding_is_flagged(self, source, row, column):
        assert findings(source, {"SL104"}) == [("SL104", row, column)]

    @pytest.mark.parametrize(
        "source, row, column",
        [
            ("import torch\nw = torch.empty(3)\nw.normal_()\ntorch.manual_seed(0)\n", 3, 1),
            ("import torch\nw = torch.empty(3).uniform_(-1, 1)\ntorch.manual_seed(0)\n", 2, 5),
            (
                "import torch\nw = torch.nn.Parameter(torch.zeros(3))\nw.data.normal_(0, 0.02)\ntorch.manual_seed(0)\n",
                3,
                1,
            ),
            (
                "import torch\nclass Net(torch.nn.Module):\n    def __init__(self):\n"
                "        self.proj = torch.nn.Linear(2, 2)\n        self.proj.weight.data.normal_()\n"
                "Net()\ntorch.manual_seed(0)\n",
                6,
                1,
            ),
        ],
        ids=[
            "empty-then-normal_",
            "chained-uniform_",
            "parameter-data-normal_",
            "module-attribute-normal_",
        ],
    )
    def test_in_place_draw_on_a_torch_made_tensor_is_flagged(self, source, row, column):
        assert findings(source, {"SL104"}) == [("SL104", row, column)]

    @pytest.mark.parametrize(
        "imports, seeding",
        [
            ("from lightning import seed_everything", "seed_everything(42)"),
            ("import lightning as L", "L.seed_everything(42)"),
            ("import pytorch_lightning as pl", "pl.seed_everything(42)"),
            ("from pytorch_lightning import seed_everything", "seed_everything(42)"),
            ("import transformers", "transformers.set_seed(0)"),
            ("from accelerate.utils import set_seed", "set_seed(0)"),
            ("from monai.utils import set_determinism", "set_determinism(seed=0)"),
            ("import monai", "monai.utils.set_determinism()"),
        ],
    )
    def test_third_party_helpers_count_as_the_seeding(self, imports, seeding):
        source = f"import torch\nimport numpy as np\n{imports}\nx = torch.randn(3)\ny = np.random.rand(3)\n{seeding}\n"
        assert findings(source, {"SL104"}) == [("SL104", 4, 5), ("SL104", 5, 5)]

    @pytest.mark.parametrize(
        "seeding", ["set_determinism(seed=0)", "set_determinism()", "set_determinism(0)"]
    )
    def test_monai_set_determinism_seeds_every_generator(self, seeding):
        # MONAI's helper seeds torch, NumPy and `random` (with a fixed default when given no seed).
        source = (
            f"import random\nimport torch\nimport numpy as np\nfrom monai.utils import set_determinism\n"
            f"{seeding}\nmodel = torch.nn.Linear(2, 2)\nidx = np.random.permutation(10)\nrandom.shuffle(items)\n"
        )
        assert codes_of(source, {"SL101", "SL102", "SL104", "SL105", "SL106"}) == []

    def test_monai_set_determinism_with_none_seeds_randomly(self):
        source = (
            "import torch\nfrom monai.utils import set_determinism\nset_determinism(seed=None)\n"
        )
        assert findings(source, {"SL106"}) == [("SL106", 3, 1)]

    def test_seeding_inside_if_args_seed_counts(self):
        source = """\
            import torch
            model = torch.nn.Linear(2, 2)
            if args.seed is not None:
                torch.manual_seed(args.seed)
            """
        assert findings(source, {"SL104"}) == [("SL104", 2, 9)]

    def test_construction_before_a_set_seed_helper_is_flagged_at_the_call_site(self):
        source = """\
            import torch
            from torch import nn


            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)


            def set_seed(seed):
                torch.manual_seed(seed)


            model = Net()
            set_seed(0)
            """
        (diagnostic,) = lint(source, {"SL104"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row, diagnostic.start.column) == ("SL104", 15, 9)
        assert "`Net()`" in diagnostic.message and "`nn.Linear`" in diagnostic.message
        assert "`set_seed`" in diagnostic.message

    def test_build_model_called_before_seeding_in_main_is_flagged_at_the_call_site(self):
        source = """\
            import torch
            from torch import nn


            def build_model():
                return nn.Sequential(nn.Linear(4, 4), nn.ReLU())


            def main():
                model = build_model()
                torch.manual_seed(0)
                return model


            if __name__ == "__main__":
                main()
            """
        assert findings(source, {"SL104"}) == [("SL104", 10, 13)]

    def test_a_helper_called_twice_before_seeding_gives_one_finding_per_call_site(self):
        source = """\
            import torch
            def make():
                return torch.nn.Linear(2, 2)
            a = make()
            b = make()
            torch.manual_seed(0)
            c = make()
            """
        assert findings(source, {"SL104"}) == [("SL104", 4, 5), ("SL104", 5, 5)]

    def test_one_finding_per_drawing_statement(self):
        source = """\
            import torch
            x = torch.randn(3) + torch.rand(3)
            torch.manual_seed(0)
            """
        assert findings(source, {"SL104"}) == [("SL104", 2, 5)]

    def test_module_draw_before_seeding_in_main(self):
        source = """\
            import torch
            noise = torch.randn(3)
            def main():
                torch.manual_seed(0)
            if __name__ == "__main__":
                main()
            """
        assert findings(source, {"SL104"}) == [("SL104", 2, 9)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            torch.manual_seed(0)
            x = torch.randn(3)
            """,
            """\
            import torch
            g = torch.Generator()
            x = torch.randn(3, generator=g)
            w = torch.empty(3)
            w.uniform_(generator=g)
            torch.manual_seed(0)
            """,
            """\
            import torch
            from torch import nn
            bn = nn.BatchNorm1d(4)
            ln = nn.LayerNorm(4)
            w = torch.zeros(3, 3)
            nn.init.zeros_(w)
            nn.init.constant_(w, 1.0)
            torch.manual_seed(0)
            """,
            """\
            import torch
            from torch.utils.data import random_split
            a, b = random_split(ds, [5, 5], generator=torch.Generator().manual_seed(1))
            torch.manual_seed(0)
            """,
            """\
            import numpy as np
            import torch
            x = np.random.rand(3)
            torch.manual_seed(0)
            """,
            """\
            import torch
            x = torch.randn(3)
            torch.cuda.manual_seed_all(0)
            """,
            """\
            import torch
            def augment(x):
                return x + torch.randn(3)
            torch.manual_seed(0)
            y = augment(1)
            """,
            """\
            import torch
            f = lambda: torch.randn(3)
            torch.manual_seed(0)
            """,
        ],
        ids=[
            "draw-after-seed",
            "explicit-generator",
            "no-random-init",
            "random_split-generator",
            "other-library",
            "cpu-draw-cuda-only-seed",
            "helper-called-after-seed",
            "lambda-not-called",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert codes_of(source, {"SL104"}) == []

    def test_set_seed_helper_called_before_model_construction_is_clean(self):
        source = """\
            import random

            import numpy as np
            import torch
            from torch import nn


            def set_seed(seed):
                random.seed(seed)
                np.random.seed(seed)
                torch.manual_seed(seed)


            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)


            def main():
                set_seed(0)
                model = Net()
                order = np.random.permutation(10)
                random.shuffle([1, 2])


            if __name__ == "__main__":
                main()
            """
        assert codes_of(source) == []

    def test_library_code_that_never_seeds_is_not_asked_to(self):
        source = """\
            import random

            import numpy as np
            import torch
            from torch import nn

            NOISE = torch.randn(3)


            def jitter(x):
                return x + np.random.normal() + random.random()


            class Block(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)


            default_block = Block()
            """
        assert codes_of(source, {"SL104", "SL105"}) == []

    def test_fix_moves_the_seeding_statement_above_the_first_draw(self):
        source = """\
            import torch
            # draw first
            x = torch.randn(3)  # noise
            y = torch.rand(2)
            torch.manual_seed(0)  # seed
            """
        assert fixed(source, {"SL104"}, fix="unsafe") == (
            "import torch\n"
            "# draw first\n"
            "torch.manual_seed(0)  # seed\n"
            "x = torch.randn(3)  # noise\n"
            "y = torch.rand(2)\n"
        )

    def test_fix_is_unsafe_only(self):
        source = "import torch\nx = torch.randn(3)\ntorch.manual_seed(0)\n"
        (diagnostic,) = lint(source, {"SL104"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.UNSAFE
        assert fixed(source, {"SL104"}, fix="safe") == source

    def test_fix_moves_a_helper_call_inside_the_function(self):
        source = """\
            import torch


            def set_seed(seed):
                torch.manual_seed(seed)


            def main():
                model = torch.nn.Linear(2, 2)
                set_seed(0)
                return model
            """
        assert fixed(source, {"SL104"}, fix="unsafe").endswith(
            "def main():\n    set_seed(0)\n    model = torch.nn.Linear(2, 2)\n    return model\n"
        )

    def test_fix_is_display_only_when_the_seed_is_not_defined_before_the_draw(self):
        source = """\
            import torch
            x = torch.randn(3)
            seed = 0
            torch.manual_seed(seed)
            """
        (diagnostic,) = lint(source, {"SL104"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert fixed(source, {"SL104"}, fix="unsafe") == textwrap.dedent(source)

    @pytest.mark.parametrize(
        "source",
        [
            "import numpy as np\ndef main(seed=None):\n    if seed is None:\n        seed = np.random.randint(2**31)\n"
            "    np.random.seed(seed)\n",
            "import random\nseed = args.seed or random.randint(0, 2**32 - 1)\nrandom.seed(seed)\n",
            "import numpy as np\nseed = np.random.randint(2**31)\nrank_seed = seed + rank\nnp.random.seed(rank_seed)\n",
            # Distilled from torch's distributed_test.py: a per-iteration reseed for the permutation only.
            "import torch\nmodel = torch.nn.Linear(2, 2)\nfor it in range(3):\n    torch.manual_seed(1337 + it)\n"
            "    order = torch.randperm(8)\n",
        ],
        ids=["random-seed-when-none", "or-random", "through-another-name", "reseeded-in-a-loop"],
    )
    def test_a_draw_that_picks_the_seed_or_precedes_a_loop_reseed_is_not_flagged(self, source):
        # Distilled from mmdetection's train script: the seed is drawn when none is given (and logged).
        assert codes_of(source, {"SL104"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import random
            import numpy as np
            import torch
            def main(args):
                if args.seed is None:
                    args.seed = random.randint(1, 10000)
                print("Random Seed: ", args.seed)
                random.seed(args.seed)
                np.random.seed(args.seed)
                torch.manual_seed(args.seed)
            """,
            """\
            import numpy as np
            import torch
            def set_seed(seed):
                np.random.seed(seed)
                torch.manual_seed(seed)
            def pick():
                return np.random.randint(0, 2**31)
            def main(args):
                if args.seed is None:
                    args.seed = pick()
                logger.info("seed %d", args.seed)
                set_seed(args.seed)
            """,
            """\
            import torch
            def main(cfg):
                if cfg["seed"] < 0:
                    cfg["seed"] = int(torch.randint(0, 2**31, ()).item())
                torch.manual_seed(cfg["seed"])
            """,
            """\
            import random
            seed = None
            if seed is None:
                seed = random.randint(0, 2**31)
            print(f"seed={seed}")
            random.seed(seed)
            """,
        ],
        ids=["args-attribute", "through-helpers", "config-item", "module-level"],
    )
    def test_a_seed_picked_when_none_is_given_is_not_a_draw_before_the_seed(self, source):
        # The pick is meant to be random and logged; moving the seeding above it would seed with None.
        assert codes_of(source, {"SL104", "SL105"}) == []

    def test_a_seed_picked_with_a_fresh_rng_object_is_not_an_unseeded_rng(self):
        source = """\
            import numpy as np
            import torch
            def main(args):
                seed = args.seed or int(np.random.default_rng().integers(2**31))
                print("seed", seed)
                torch.manual_seed(seed)
            """
        assert codes_of(source, {"SL104", "SL105", "SL106"}) == []

    @pytest.mark.parametrize(
        "source, row",
        [
            (
                "import torch\ndef main(args):\n    noise = torch.randn(3)\n    torch.manual_seed(args.seed)\n"
                "    return noise\n",
                3,
            ),
            (
                "import torch\ndef main(args):\n    args.noise = torch.randn(3)\n    torch.manual_seed(args.seed)\n",
                3,
            ),
            (
                "import torch\ndef main(args):\n    x = None\n    if args.seed is None:\n"
                "        x = torch.randn(3)\n    torch.manual_seed(args.seed)\n    return x\n",
                5,
            ),
        ],
        ids=["other-name", "other-attribute", "draw-under-the-same-test"],
    )
    def test_a_draw_whose_value_does_not_reach_the_seed_is_still_flagged(self, source, row):
        assert [(code, r) for code, r, _ in findings(source, {"SL104"})] == [("SL104", row)]

    @pytest.mark.parametrize(
        "source",
        [
            "import torch\nif resume:\n    x = torch.randn(3)\nelse:\n    torch.manual_seed(0)\n",
            "import torch\nif a:\n    torch.manual_seed(0)\nelif b:\n    x = torch.randn(3)\n",
            "import torch\nmatch mode:\n    case 'eval':\n        x = torch.randn(3)\n"
            "    case _:\n        torch.manual_seed(0)\n",
            "import torch\ntry:\n    load()\nexcept OSError:\n    x = torch.randn(3)\n"
            "else:\n    torch.manual_seed(0)\n",
        ],
        ids=["if-else", "if-elif", "match-cases", "try-handler-and-else"],
    )
    def test_draw_and_seeding_in_exclusive_branches_is_not_flagged(self, source):
        assert codes_of(source, {"SL104"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            "import torch\nif resume:\n    x = torch.randn(3)\ntorch.manual_seed(0)\n",
            "import torch\ntry:\n    x = torch.randn(3)\nexcept OSError:\n    torch.manual_seed(0)\n",
        ],
        ids=["draw-in-if-then-seed-after", "try-body-then-handler"],
    )
    def test_draw_in_a_branch_that_can_precede_the_seeding_is_flagged(self, source):
        assert codes_of(source, {"SL104"}) == ["SL104"]

    def test_draw_in_a_class_body_before_seeding_is_flagged(self):
        source = """\
            import torch
            class Config:
                noise = torch.randn(3)
            torch.manual_seed(0)
            """
        assert findings(source, {"SL104"}) == [("SL104", 3, 13)]

    def test_fix_does_not_move_a_helper_above_the_global_its_seed_reads(self):
        source = """\
            import torch
            def set_seed():
                torch.manual_seed(SEED)
            x = torch.randn(3)
            SEED = 0
            set_seed()
            """
        text = fixed(source, {"SL104"}, fix="unsafe")
        assert text.index("SEED = 0") < text.index("set_seed()\n")


class TestSL104DrawnDelays:
    @pytest.mark.parametrize(
        "line, flagged",
        [
            ("time.sleep(random.randint(1, 5))", False),
            ("sleep(randint(1, 5))", False),
            ("train(scale=random.randint(1, 5))", True),
        ],
    )
    def test_a_draw_that_only_sets_how_long_to_wait(self, line, flagged):
        """Workers staggered by `sleep(randint(1, 5))` before the seed: the value is a delay."""
        source = (
            "import random\nimport time\nfrom random import randint\nfrom time import sleep\n"
            f"{line}\nrandom.seed(0)\ntrain(scale=random.random())\n"
        )
        found = [code for code, *_ in findings(source, {"SL104"})]
        assert found == (["SL104"] if flagged else [])


class TestSL104ThrownAwayInitialisation:
    """A build whose random weights are never used (empty init, or every weight loaded first) draws nothing
    that matters; one whose weights stay random, even partly, is still a draw before the seed."""

    GPT = """\
        import torch
        import torch.nn as nn
        class GPT(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
        """

    def flagged_rows(self, body: str) -> list[int]:
        source = textwrap.dedent(self.GPT) + textwrap.dedent(body)
        return [row for code, row, _ in findings(source, {"SL104", "SL105"}) if code == "SL104"]

    @pytest.mark.parametrize(
        "body",
        [
            'with torch.device("meta"):\n    model = GPT()\nmodel.load_state_dict(torch.load("ckpt.pt"), assign=True)\n',
            "from accelerate import init_empty_weights\nwith init_empty_weights():\n    model = GPT()\n",
            "def main(fabric):\n    with fabric.init_module(empty_init=True):\n        model = GPT()\n"
            "    torch.manual_seed(0)\n",
            "from transformers.modeling_utils import no_init_weights\nwith no_init_weights():\n    model = GPT()\n",
            'layer = nn.Linear(4, 4, device="meta")\n',
            "from torch.nn.utils import skip_init\nmodel = skip_init(GPT)\n",
            'model = GPT()\nmodel.load_state_dict(torch.load("ckpt.pt"))\n',
            'model = GPT().to("cpu")\nmodel.eval()\nmodel = model.half()\nmodel.load_state_dict(torch.load("ckpt.pt"))\n',
            "def load(net, path):\n    net.load_state_dict(torch.load(path)['model'])\n"
            "model = GPT()\nload(model, 'ckpt.pt')\n",
            "from safetensors.torch import load_model\nmodel = GPT()\nload_model(model, 'model.safetensors')\n",
            "class Runner:\n    def __init__(self):\n        self.model = GPT()\n"
            "        self.model.load_state_dict(torch.load('ckpt.pt'))\nrunner = Runner()\n",
            "def restore(path):\n    model = GPT()\n    model.load_state_dict(torch.load(path))\n"
            "    return model\nmodel = restore('ckpt.pt')\n",
            "GPT.from_pretrained = classmethod(lambda cls, name: cls())\nmodel = GPT.from_pretrained('gpt2')\n",
        ],
        ids=[
            "meta-device",
            "init-empty-weights",
            "fabric-empty-init",
            "no-init-weights",
            "device-meta-argument",
            "skip-init",
            "load-state-dict",
            "kept-by-to-eval-half",
            "loading-helper",
            "safetensors-load-model",
            "attribute-loaded-in-init",
            "helper-returning-a-loaded-model",
            "from-pretrained",
        ],
    )
    def test_a_build_whose_random_weights_are_thrown_away_is_not_a_draw(self, body):
        assert (
            self.flagged_rows(
                body + "torch.manual_seed(1234)\nsample = torch.multinomial(torch.ones(4), 1)\n"
            )
            == []
        )

    @pytest.mark.parametrize(
        "body, row",
        [
            ('model = GPT()\nmodel.load_state_dict(torch.load("ckpt.pt"), strict=False)\n', 7),
            ('model = GPT()\nif resume:\n    model.load_state_dict(torch.load("ckpt.pt"))\n', 7),
            (
                'model = GPT()\nwarm = model(torch.ones(4))\nmodel.load_state_dict(torch.load("ckpt.pt"))\n',
                7,
            ),
            ('model = GPT()\nmodel.fc.load_state_dict(torch.load("fc.pt"))\n', 7),
            ('model = GPT()\nteacher = GPT()\nteacher.load_state_dict(torch.load("ckpt.pt"))\n', 7),
            ('with torch.device("cuda"):\n    model = GPT()\n', 8),
            (
                "def load(net, path):\n    if path:\n        net.load_state_dict(torch.load(path))\n"
                "model = GPT()\nload(model, None)\n",
                10,
            ),
        ],
        ids=[
            "non-strict-load",
            "load-only-when-resuming",
            "used-before-the-load",
            "part-loaded",
            "another-model-loaded",
            "built-on-cuda",
            "helper-loads-conditionally",
        ],
    )
    def test_a_build_whose_weights_stay_random_is_still_a_draw_before_the_seed(self, body, row):
        assert self.flagged_rows(body + "torch.manual_seed(1234)\n") == [row]


class TestSL104LibraryCalls:
    """Library calls that draw (model builders) and seed (a transformers Trainer's constructor)."""

    @pytest.mark.parametrize(
        "imports, build",
        [
            (
                "from peft import LoraConfig, get_peft_model",
                "get_peft_model(base, LoraConfig(r=8))",
            ),
            (
                "from transformers import AutoModelForCausalLM",
                "AutoModelForCausalLM.from_config(config)",
            ),
            ("import transformers", "transformers.GPT2LMHeadModel(config)"),
            ("import timm", "timm.create_model('resnet50')"),
            ("import timm", "timm.create_model('resnet50', pretrained=False, num_classes=10)"),
            ("import torchvision", "torchvision.models.resnet18()"),
            ("from torchvision import models", "models.resnet18(weights=None)"),
            (
                "from torchvision.models.detection import fasterrcnn_resnet50_fpn",
                "fasterrcnn_resnet50_fpn(weights=None)",
            ),
            (
                "from torchvision.models import ResNet\nfrom torchvision.models.resnet import BasicBlock",
                "ResNet(BasicBlock, [2, 2, 2, 2])",
            ),
            ("import timm", "timm.create_model('resnet50', pretrained=True, num_classes=10)"),
        ],
        ids=[
            "peft-adapter",
            "from-config",
            "model-class-from-config",
            "timm-default",
            "timm-not-pretrained",
            "torchvision-default",
            "torchvision-weights-none",
            "torchvision-detection",
            "torchvision-class",
            "timm-pretrained-with-a-new-head",
        ],
    )
    def test_a_library_build_with_random_weights_before_the_seed_is_flagged(self, imports, build):
        source = f"import torch\n{imports}\nmodel = {build}\ntorch.manual_seed(0)\n"
        rows = [row for code, row, _ in findings(source, {"SL104"})]
        assert rows == [imports.count("\n") + 3]

    @pytest.mark.parametrize(
        "imports, build",
        [
            ("import timm", "timm.create_model('resnet50', pretrained=True)"),
            ("import torchvision", "torchvision.models.resnet18(weights='DEFAULT')"),
            (
                "from torchvision.models import ResNet18_Weights, resnet18",
                "resnet18(weights=ResNet18_Weights.DEFAULT)",
            ),
            ("import torchvision", "torchvision.models.resnet18(pretrained=True)"),
            ("import torchvision", "torchvision.models.get_model_weights('resnet18')"),
            (
                "from transformers import AutoModelForCausalLM",
                "AutoModelForCausalLM.from_pretrained('gpt2')",
            ),
            ("from transformers import AutoConfig", "AutoConfig.from_pretrained('gpt2')"),
            ("from transformers import TFBertModel", "TFBertModel(config)"),
            (
                "from transformers import DataCollatorForSeq2Seq",
                "DataCollatorForSeq2Seq(tokenizer)",
            ),
            ("from mylib import create_model", "create_model('resnet50')"),
            (
                "from torchvision.models.feature_extraction import create_feature_extractor",
                "create_feature_extractor(backbone, return_nodes=['layer4'])",
            ),
            (
                "from torchvision.models._utils import IntermediateLayerGetter",
                "IntermediateLayerGetter(backbone, {'layer4': 'out'})",
            ),
        ],
        ids=[
            "timm-pretrained",
            "torchvision-weights",
            "torchvision-weights-enum",
            "torchvision-pretrained",
            "torchvision-weights-lookup",
            "from-pretrained",
            "config",
            "tensorflow-model",
            "data-collator",
            "other-library",
            "torchvision-feature-extractor",
            "torchvision-layer-getter",
        ],
    )
    def test_a_library_call_that_loads_or_builds_nothing_is_not_a_draw(self, imports, build):
        assert (
            codes_of(f"import torch\n{imports}\nmodel = {build}\ntorch.manual_seed(0)\n", {"SL104"})
            == []
        )

    @pytest.mark.parametrize(
        "trainer, definition",
        [
            ("Trainer(model=model, args=args)", ""),
            ("SFTTrainer(model=model, args=args)", ""),
            ("MyTrainer(model=model, args=args)", "class MyTrainer(Trainer):\n    pass\n"),
            (
                "MyTrainer(model=model, args=args)",
                "class MyTrainer(Trainer):\n    def __init__(self, *a, **kw):\n        super().__init__(*a, **kw)\n",
            ),
        ],
        ids=["trainer", "trl-trainer", "subclass", "subclass-calling-super-init"],
    )
    def test_an_adapter_built_before_the_trainer_seeds_is_flagged(self, trainer, definition):
        # Distilled from fine-tuning scripts: transformers.Trainer.__init__ calls set_seed(args.seed).
        source = (
            "from peft import LoraConfig, get_peft_model\nfrom transformers import Trainer\nfrom trl import SFTTrainer\n"
            f"{definition}"
            "def main(model, args):\n"
            "    model = get_peft_model(model, LoraConfig(r=8))\n"
            f"    trainer = {trainer}\n"
            "    trainer.train()\n"
        )
        (diagnostic,) = lint(source, {"SL104", "SL105"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row) == ("SL104", 5 + definition.count("\n"))
        assert f"before `{trainer.split('(')[0]}` seeds it" in diagnostic.message

    @pytest.mark.parametrize(
        "source",
        [
            "from transformers import Trainer\nimport torch\ndef main(model, args):\n"
            "    trainer = Trainer(model=model, args=args)\n    noise = torch.randn(3)\n",
            "from lightning import Trainer\nimport torch\ndef main(model):\n    noise = torch.randn(3)\n"
            "    trainer = Trainer(max_epochs=1)\n",
            "import torch\nclass Trainer:\n    pass\ndef main():\n    noise = torch.randn(3)\n    trainer = Trainer()\n",
        ],
        ids=["draw-after-the-trainer", "lightning-trainer-does-not-seed", "own-trainer-class"],
    )
    def test_trainer_look_alikes_are_not_flagged(self, source):
        assert codes_of(source, {"SL104", "SL105"}) == []


# ============================================================================ SL105
class TestSL105LibraryUnseeded:
    @pytest.mark.parametrize(
        "source, row, column",
        [
            (
                "import torch\nimport numpy as np\ntorch.manual_seed(0)\nx = np.random.rand(3)\n",
                4,
                5,
            ),
            (
                "import torch\nfrom random import shuffle\ntorch.manual_seed(0)\nshuffle(items)\n",
                4,
                1,
            ),
            (
                "import random\nimport torch.nn as nn\nrandom.seed(3)\nmodel = nn.Linear(2, 2)\n",
                4,
                9,
            ),
            (
                "import numpy as np\nfrom fairseq.utils import set_torch_seed\nset_torch_seed(0)\n"
                "y = np.random.rand(2)\n",
                4,
                5,
            ),
            (
                "from numpy import random as npr\nimport torch\nif args.seed is not None:\n"
                "    torch.manual_seed(args.seed)\nx = npr.normal()\n",
                5,
                5,
            ),
        ],
        ids=["numpy", "random", "torch", "fairseq-seeds-torch-only", "npr-after-if-args-seed"],
    )
    def test_draw_from_a_library_the_flow_never_seeds_is_flagged(self, source, row, column):
        assert findings(source, {"SL105"}) == [("SL105", row, column)]

    @pytest.mark.parametrize(
        "source",
        [
            "import random\nimport torch\ntorch.manual_seed(0)\nrandom.seed()\ny = random.random()\n",
            "import time\nimport numpy as np\nimport torch\ntorch.manual_seed(0)\n"
            "np.random.seed(int(time.time()))\nz = np.random.rand(3)\n",
            "import numpy as np\nimport torch\nnp.random.seed(0)\ntorch.seed()\nx = torch.randn(3)\n",
        ],
        ids=["random-seed-without-argument", "numpy-seed-from-the-clock", "torch-seed-reseeds"],
    )
    def test_a_library_seeded_with_a_random_value_is_sl106_not_sl105(self, source):
        # The library is seeded, badly: SL106 says so; "never seeds" would be false and its fix a second seeding.
        assert codes_of(source, {"SL105", "SL106"}) == ["SL106"]

    def test_only_the_first_draw_in_execution_order_is_flagged(self):
        source = """\
            import numpy as np
            import torch
            def augment():
                return np.random.rand()
            torch.manual_seed(0)
            x = np.random.randint(5)
            y = augment()
            """
        assert findings(source, {"SL105"}) == [("SL105", 6, 5)]

    def test_project_helper_seeding_part_of_the_libraries(self):
        settings = AnalysisSettings(
            seed_functions={"myproj.utils.fix_seeds": frozenset({"torch", "cuda"})}
        )
        source = """\
            import numpy as np
            from myproj.utils import fix_seeds
            fix_seeds(0)
            y = np.random.rand(2)
            """
        assert findings(source, {"SL105"}, settings=settings) == [("SL105", 4, 5)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import random
            import numpy as np
            import torch
            from lightning import seed_everything
            seed_everything(42)
            x = np.random.rand(3) + random.random() + torch.randn(3)
            """,
            """\
            import random
            import numpy as np
            import torch
            import transformers
            transformers.set_seed(0)
            x = np.random.rand(3) + random.random() + torch.randn(3)
            """,
            """\
            import numpy as np
            import torch
            torch.manual_seed(0)
            np.random.seed(0)
            x = np.random.rand(3)
            """,
            """\
            import numpy as np
            import torch
            import random
            torch.manual_seed(0)
            rng = np.random.default_rng(0)
            x = rng.normal()
            r = random.Random(0)
            r.shuffle(items)
            """,
            """\
            import numpy as np
            x = np.random.rand(3)
            """,
        ],
        ids=[
            "seed_everything",
            "transformers.set_seed",
            "both-seeded",
            "rng-objects",
            "no-seeding",
        ],
    )
    def test_not_flagged_when_every_drawn_library_is_seeded(self, source):
        assert codes_of(source, {"SL105"}) == []

    @pytest.mark.parametrize(
        "seed, numpy_seed",
        [
            ("0", "0"),
            ("1234", "1234"),
            ("seed", "seed % 2**32"),
            ("args.seed", "args.seed % 2**32"),
            ("args.seed + rank", "(args.seed + rank) % 2**32"),
            ("99999999999", "99999999999 % 2**32"),
            ("-1", "(-1) % 2**32"),
        ],
    )
    def test_numpy_fix_reduces_the_seed_modulo_2_32_unless_it_is_a_small_literal(
        self, seed, numpy_seed
    ):
        source = (
            f"import torch\nimport numpy as np\ntorch.manual_seed({seed})\nx = np.random.rand(3)\n"
        )
        assert fixed(source, {"SL105"}) == (
            f"import torch\nimport numpy as np\ntorch.manual_seed({seed})\n"
            f"np.random.seed({numpy_seed})\nx = np.random.rand(3)\n"
        )

    def test_numpy_fix_reuses_a_from_import_alias(self):
        source = (
            "import torch\nfrom numpy import random as npr\ntorch.manual_seed(1)\nx = npr.rand(3)\n"
        )
        assert fixed(source, {"SL105"}) == (
            "import torch\nfrom numpy import random as npr\ntorch.manual_seed(1)\nnpr.seed(1)\nx = npr.rand(3)\n"
        )

    def test_numpy_fix_adds_import_numpy_as_np_when_missing(self):
        source = """\
            \"\"\"Train.\"\"\"
            import torch
            from numpy.random import rand
            torch.manual_seed(1)  # seed
            x = rand(3)
            """
        assert fixed(source, {"SL105"}) == (
            '"""Train."""\n'
            "import torch\n"
            "from numpy.random import rand\n"
            "import numpy as np\n"
            "torch.manual_seed(1)  # seed\n"
            "np.random.seed(1)\n"
            "x = rand(3)\n"
        )

    def test_random_fix_adds_import_random(self):
        source = "import torch\nfrom random import shuffle\ntorch.manual_seed(s)\nshuffle(items)\n"
        assert fixed(source, {"SL105"}) == (
            "import torch\nfrom random import shuffle\nimport random\ntorch.manual_seed(s)\n"
            "random.seed(s)\nshuffle(items)\n"
        )

    def test_torch_fix_after_random_seed(self):
        source = "import random\nimport torch\nrandom.seed(3)\nmodel = torch.nn.Linear(2, 2)\n"
        assert fixed(source, {"SL105"}) == (
            "import random\nimport torch\nrandom.seed(3)\ntorch.manual_seed(3)\nmodel = torch.nn.Linear(2, 2)\n"
        )

    def test_fix_goes_into_the_seeding_helper(self):
        source = """\
            import numpy as np
            import torch


            def set_seed(seed):
                torch.manual_seed(seed)


            set_seed(5)
            x = np.random.rand(3)
            """
        assert (
            "def set_seed(seed):\n    torch.manual_seed(seed)\n    np.random.seed(seed % 2**32)\n"
            in fixed(source, {"SL105"})
        )

    def test_fix_keeps_crlf(self):
        data = b"import torch\r\nimport numpy as np\r\ntorch.manual_seed(0)\r\nx = np.random.rand(2)\r\n"
        assert fix_bytes(data, {"SL105"}) == (
            "import torch\r\nimport numpy as np\r\ntorch.manual_seed(0)\r\n"
            "np.random.seed(0)\r\nx = np.random.rand(2)\r\n"
        )

    def test_fix_does_not_use_a_name_imported_after_the_seeding_call(self):
        source = "import torch\ntorch.manual_seed(0)\nimport numpy\nx = numpy.random.rand(2)\n"
        text = fixed(source, {"SL105"})
        seeding_line = next(line for line in text.splitlines() if "random.seed(" in line)
        bound_before = text[: text.index(seeding_line)]
        assert "import numpy" in bound_before


# ============================================================================ SL106
def _sl106_rows(cwd) -> list[str]:
    """`file:row:column:` of each SL106 finding of `seedlint check .` run in `cwd`."""
    result = run_cli(
        "check", "--isolated", "--select", "SL106", "--output-format", "concise", ".", cwd=cwd
    )
    return [line.split(" ")[0] for line in result.stdout.decode().splitlines()[:-2]]


class TestSL106NondeterministicSeed:
    def test_a_librarys_own_reseeding_function_is_left_to_its_callers(self, write, tmp_path):
        write("torch/__init__.py", "")
        write(
            "torch/random.py",
            "from torch._C import default_generator\n\n\n"
            "def seed():\n    value = default_generator.seed()\n    return value\n",
        )
        write("train.py", "import torch._C\n\ntorch._C.default_generator.seed()\n")
        assert _sl106_rows(tmp_path) == ["train.py:3:1:"]

    def test_a_project_helper_called_without_a_seed_that_defaults_to_none(self, write, tmp_path):
        write(
            "utils.py",
            """\
            import random

            import torch


            def set_seed(seed=None):
                if seed is None:
                    seed = random.randint(0, 2**31)
                torch.manual_seed(seed)


            def fix_seed(seed=None):
                if seed is None:
                    seed = 42
                torch.manual_seed(seed)
            """,
        )
        write(
            "train.py",
            "from utils import fix_seed, set_seed\n\nset_seed()\nfix_seed()\nset_seed(3)\n",
        )
        assert _sl106_rows(tmp_path) == ["train.py:3:1:"]

    @pytest.mark.parametrize(
        ("line", "codes"),
        [
            ("torch.cuda.default_generators[0].seed()", ["SL106"]),
            ("gen = torch.cuda.default_generators[1]\ngen.seed()", ["SL106"]),
            ("torch._C.default_generator.seed()", ["SL106"]),
            ("torch.cuda.default_generators[0].manual_seed(0)", []),  # a seed, not a reseed
            ("env = make_env()\nenv.seed()", []),  # not a torch generator
        ],
    )
    def test_seed_on_any_torch_generator_reseeds_at_random(self, line, codes):
        source = f"import torch\n\ntorch.manual_seed(0)\n{line}\nx = torch.rand(3)\n"
        assert codes_of(source, {"SL106"}) == codes

    @pytest.mark.parametrize(
        "source, row, column",
        [
            ("import random\nrandom.seed()\n", 2, 1),
            ("import numpy as np\nnp.random.seed(None)\n", 2, 1),
            ("import numpy as np\nnp.random.seed()\n", 2, 1),
            ("import time\nimport torch\ntorch.manual_seed(int(time.time()))\n", 3, 1),
            ("import time\nimport torch\nseed = int(time.time())\ntorch.manual_seed(seed)\n", 4, 1),
            (
                "import time\nimport torch\nnow = time.time()\nseed = int(now * 1000)\ntorch.manual_seed(seed)\n",
                5,
                1,
            ),
            ("from time import time\nimport torch\ntorch.manual_seed(int(time()))\n", 3, 1),
            ("import time\nimport random\nrandom.seed(time.time_ns())\n", 3, 1),
            (
                "from datetime import datetime\nimport torch\ntorch.manual_seed(datetime.now().microsecond)\n",
                3,
                1,
            ),
            ("import os\nimport torch\ntorch.manual_seed(os.getpid())\n", 3, 1),
            ("import uuid\nimport torch\ntorch.manual_seed(uuid.uuid4().int)\n", 3, 1),
            (
                "import os\nimport torch\ntorch.manual_seed(int.from_bytes(os.urandom(4), 'big'))\n",
                3,
                1,
            ),
            ("import secrets\nimport torch\ntorch.manual_seed(secrets.randbits(32))\n", 3, 1),
            ("import torch\ntorch.seed()\n", 2, 1),
            ("import torch\ntorch.cuda.seed()\n", 2, 1),
            ("import torch\ntorch.cuda.seed_all()\n", 2, 1),
            ("import torch\ng = torch.Generator()\ng.seed()\n", 3, 1),
            ("from detectron2.utils.env import seed_all_rng\nseed_all_rng()\n", 2, 1),
            ("from mmengine.runner import set_random_seed\nset_random_seed(None)\n", 2, 1),
        ],
        ids=[
            "random.seed()",
            "np.random.seed(None)",
            "np.random.seed()",
            "time.time",
            "seed-variable-from-time",
            "seed-variable-chain",
            "from-time-import-time",
            "time_ns",
            "datetime.now",
            "getpid",
            "uuid4",
            "urandom",
            "secrets",
            "torch.seed",
            "torch.cuda.seed",
            "torch.cuda.seed_all",
            "generator.seed",
            "seed_all_rng()",
            "mmengine-None",
        ],
    )
    def test_random_seeding_is_flagged(self, source, row, column):
        assert findings(source, {"SL106"}) == [("SL106", row, column)]

    @pytest.mark.parametrize(
        "constructor",
        [
            "np.random.default_rng()",
            "np.random.RandomState()",
            "random.Random()",
            "np.random.default_rng(None)",
        ],
    )
    def test_unseeded_rng_object_in_a_seeding_program_is_flagged(self, constructor):
        source = f"import random\nimport numpy as np\nimport torch\ntorch.manual_seed(0)\nrng = {constructor}\n"
        assert findings(source, {"SL106"}) == [("SL106", 5, 7)]

    @pytest.mark.parametrize(
        "source",
        [
            "import numpy as np\nimport torch\ntorch.manual_seed(0)\nrng = np.random.default_rng(0)\n",
            "import numpy as np\nimport torch\ntorch.manual_seed(0)\nrng = np.random.default_rng(seed=1)\n",
            "import numpy as np\nrng = np.random.default_rng()\n",
            "import random\nrandom.seed(args.seed)\n",
            "import random\nrandom.seed(a=1)\n",
            "import numpy as np\nnp.random.seed(0)\n",
            "import torch\nseed = args.seed\ntorch.manual_seed(seed)\n",
            "import time\nimport torch\nstart = time.time()\ntorch.manual_seed(0)\n",
            "import torch\ng = torch.Generator()\ng.manual_seed(0)\n",
            "from lightning import seed_everything\nseed_everything(42)\n",
            "from detectron2.utils.env import seed_all_rng\nseed_all_rng(0)\n",
        ],
        ids=[
            "default_rng(0)",
            "default_rng(seed=1)",
            "default_rng-in-non-seeding-code",
            "random.seed(args.seed)",
            "random.seed(a=1)",
            "np.random.seed(0)",
            "seed-from-args",
            "time-used-elsewhere",
            "generator.manual_seed",
            "seed_everything(42)",
            "seed_all_rng(0)",
        ],
    )
    def test_fixed_seeds_are_not_flagged(self, source):
        assert codes_of(source, {"SL106"}) == []

    def test_a_seed_taken_from_a_random_reseed_is_random(self):
        source = "import numpy as np\nimport torch\ns = torch.seed()\nnp.random.seed(s % 2**32)\n"
        assert findings(source, {"SL106"}) == [("SL106", 3, 5), ("SL106", 4, 1)]

    @pytest.mark.parametrize(
        "source, expected",
        [
            # Distilled from torch/random.py's `seed()`: the random seed is chosen and returned
            # (only the reseed itself is reported; seeding CUDA with the returned value is not).
            (
                "import torch\ndef seed():\n    s = torch.seed()\n    torch.cuda.manual_seed_all(s)\n    return s\n",
                [("SL106", 3, 9)],
            ),
            # Distilled from torch/utils/benchmark/utils/fuzzer.py: a seed picked only when none is given.
            (
                "import numpy as np\nimport torch\ndef make(seed=None):\n    if seed is None:\n"
                "        seed = int(np.random.RandomState().randint(0, 2**32 - 1))\n    torch.manual_seed(seed)\n",
                [],
            ),
        ],
        ids=["returned-random-seed", "picks-a-missing-seed"],
    )
    def test_a_chosen_random_seed_is_not_flagged(self, source, expected):
        assert findings(source, {"SL106"}) == expected

    def test_fix_is_display_only(self):
        source = "import random\nrandom.seed()\n"
        (diagnostic,) = lint(source, {"SL106"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert fixed(source, {"SL106"}, fix="unsafe") == source

    def test_random_seeding_does_not_make_a_seeding_flow(self):
        # `random.seed()` declares no intent to be reproducible: SL105 has nothing to compare with.
        source = "import random\nimport numpy as np\nrandom.seed()\nx = np.random.rand(3)\n"
        assert codes_of(source, {"SL105", "SL104"}) == []


# ====================================================================== every fix
FIXABLE = [
    (
        "SL101",
        "safe",
        """\
import torch
# seed the GPUs
if torch.cuda.is_available():  # guard
    torch.cuda.manual_seed_all(args.seed)  # all devices
""",
    ),
    (
        "SL102",
        "safe",
        """\
import torch
torch.default_generator.manual_seed(0)  # CPU only
model = torch.nn.Linear(2, 2).cuda()  # on GPU
""",
    ),
    (
        "SL102",
        "safe",
        """\
import torch
from torch import nn
torch.cuda.manual_seed(0)  # current device
model = nn.DataParallel(nn.Linear(2, 2))  # several GPUs
""",
    ),
    (
        "SL103",
        "safe",
        """\
import torch
torch.manual_seed(7)  # the seed
model = torch.nn.Linear(2, 2).cuda()  # on GPU
""",
    ),
    (
        "SL104",
        "unsafe",
        """\
import torch
# draws first
x = torch.randn(3)  # noise
model = torch.nn.Linear(2, 2)  # init
torch.manual_seed(0)  # seed
""",
    ),
    (
        "SL105",
        "safe",
        """\
import random
import torch
from numpy.random import rand  # numpy
torch.manual_seed(args.seed)  # seed
x = rand(3)  # numpy draw
random.shuffle(items)  # random draw
""",
    ),
]


@pytest.mark.parametrize(
    "code, mode, source", FIXABLE, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(FIXABLE)]
)
class TestFixProperties:
    def test_the_source_is_flagged_with_a_fix(self, code, mode, source):
        diagnostics = lint(source, {code}).diagnostics
        assert diagnostics
        assert all(d.code == code and d.fixable(mode == "unsafe") for d in diagnostics)

    def test_fixed_source_has_no_finding_of_the_rule(self, code, mode, source):
        result = lint(source, {code}, fix=mode)
        assert result.source.text != source
        assert [d.code for d in result.diagnostics] == []
        assert codes_of(result.source.text, {code}) == []

    def test_fixing_again_changes_nothing(self, code, mode, source):
        once = fixed(source, {code}, fix=mode)
        assert fixed(once, {code}, fix=mode) == once

    def test_comments_survive(self, code, mode, source):
        # SL104 moves a statement with its comment: the comments stay, possibly in another order.
        assert sorted(comments(fixed(source, {code}, fix=mode))) == sorted(comments(source))

    def test_result_parses(self, code, mode, source):
        libcst.parse_module(fixed(source, {code}, fix=mode))


def test_sl105_fixes_every_flow_that_reaches_a_shared_draw_unseeded():
    """Found by fuzzing: a model class built both in the module body and in `main()`, each flow seeding only
    NumPy. The draw (the `Linear` in `__init__`) was one finding whose fix seeded torch in one flow only, so
    the next round reported it again; now its fix seeds torch in both. (`main` runs under `fire`, after
    the loop: its flow starts with NumPy seeded and torch not.)"""
    source = """\
        import fire
        import numpy as np
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(8, 8)


        def main():
            np.random.seed(0)
            model = Net()
            return model


        for epoch in range(3):
            np.random.seed(0)
            model = Net()

        fire.Fire(main)
        """
    (diagnostic,) = lint(source, {"SL105"}).diagnostics
    assert (diagnostic.code, diagnostic.start.row) == ("SL105", 9)
    assert len(diagnostic.fix.edits) == 2
    fixed = lint(source, {"SL105"}, fix="safe")
    assert fixed.source.text.count("torch.manual_seed(0)") == 2 and fixed.diagnostics == []


class TestLibraryShufflesDrawFromNumPy:
    """Issue 14, family 1: library shuffles and splits without a seed take NumPy's global generator."""

    def test_an_unseeded_hf_dataset_shuffle_before_the_numpy_seed_is_sl104(self):
        source = """\
            import numpy as np
            from datasets import load_dataset

            ds = load_dataset("imdb")["train"]
            shuffled = ds.map(len).shuffle()
            np.random.seed(0)
            """
        assert findings(source, {"SL104", "SL105"}) == [("SL104", 5, 12)]

    def test_a_script_that_seeds_only_torch_gets_sl105_for_splits_and_its_fix_seeds_numpy(self):
        source = """\
            import torch
            from datasets import load_dataset
            from sklearn.model_selection import train_test_split


            def main(seed):
                torch.manual_seed(seed)
                splits = load_dataset("imdb")["train"].train_test_split(test_size=0.1)
                x_train, x_test = train_test_split(range(10), test_size=0.2)
                return splits, x_train


            main(0)
            """
        (diagnostic,) = lint(source, {"SL105"}).diagnostics
        assert (diagnostic.code, diagnostic.start.row) == ("SL105", 8)
        assert "NumPy global generator" in diagnostic.message
        fixed = lint(source, {"SL105"}, fix="safe")
        assert (
            "np.random.seed(seed % 2**32)" in fixed.source.text
            or "np.random.seed(seed)" in fixed.source.text
        )
        assert fixed.diagnostics == []

    @pytest.mark.parametrize(
        "call",
        [
            "ds.shuffle(seed=0)",
            "ds.shuffle(42)",
            "ds.shuffle(generator=np.random.default_rng(0))",
            'dd.shuffle(seeds={"train": 0})',
            "ds.train_test_split(test_size=0.1, seed=1)",
            "ds.train_test_split(test_size=0.1, shuffle=False)",
            "train_test_split(range(10), random_state=0)",
            "train_test_split(range(10), shuffle=False)",
            "resample(range(10), random_state=rng)",
            # Streamed datasets shuffle with OS entropy, not NumPy's generator (another rule's business).
            'load_dataset("c4", streaming=True)["train"].shuffle()',
            "ds.to_iterable_dataset().shuffle()",
            "IterableDataset.from_generator(gen).shuffle()",
            # Look-alikes: not a `datasets` object.
            "Deck().shuffle()",
            "batch.shuffle()",
            "tf.data.Dataset.range(4).shuffle(4)",
        ],
    )
    def test_seeded_unshuffled_streamed_and_look_alike_calls_are_left_alone(self, call):
        source = f"""\
            import numpy as np
            import tensorflow as tf
            from datasets import IterableDataset, load_dataset
            from sklearn.model_selection import train_test_split
            from sklearn.utils import resample

            class Deck:
                def shuffle(self):
                    pass

            def gen():
                yield 1

            rng = np.random.RandomState(0)
            dd = load_dataset("imdb")
            ds = dd["train"]
            result = {call}
            np.random.seed(0)
            """
        assert codes_of(source, {"SL104", "SL105"}) == []

    def test_a_dataset_passed_in_as_a_parameter_is_not_assumed_to_be_one(self):
        source = """\
            import numpy as np


            def prepare(ds):
                return ds.shuffle()


            prepare(None)
            np.random.seed(0)
            """
        assert codes_of(source, {"SL104", "SL105"}) == []

    def test_a_dataset_rebound_to_what_it_derives_from_is_still_one(self):
        source = """\
            import numpy as np
            from datasets import load_dataset

            dataset = load_dataset("imdb", split="train")
            dataset = dataset.map(len)
            dataset = dataset.shuffle()
            np.random.seed(0)
            """
        assert findings(source, {"SL104"}) == [("SL104", 6, 11)]
        # A name bound to two different things is not assumed to be a dataset.
        other = source.replace("dataset = dataset.map(len)", "dataset = Deck()")
        assert codes_of(other, {"SL104"}) == []

    @pytest.mark.parametrize(
        "other, flagged",
        [
            ("load_dataset(path)", True),
            ("datasets.load_from_disk(path)", True),
            (
                "load_dataset(path, streaming=True)",
                False,
            ),  # streamed on one path: another rule's business
            ("pandas.read_json(path)", False),
            ("None", False),
        ],
    )
    def test_a_dataset_loaded_on_every_branch_is_one(self, other, flagged):
        # Distilled from alpaca-lora's finetune.py: the data come from a JSON file or the Hub, then shuffle.
        source = f"""\
            import datasets
            import numpy as np
            import pandas
            from datasets import load_dataset
            if path.endswith(".json"):
                data = load_dataset("json", data_files=path)
            else:
                data = {other}
            train = data["train"].shuffle()
            np.random.seed(0)
            """
        assert findings(source, {"SL104"}) == ([("SL104", 9, 9)] if flagged else [])

    def test_a_shuffling_sklearn_splitter_without_random_state_draws_at_split(self):
        source = """\
            import numpy as np
            from sklearn.model_selection import GroupKFold, KFold, ShuffleSplit, StratifiedKFold

            folds = KFold(n_splits=5, shuffle=True)
            for train, test in folds.split(range(10)):
                fit(train, test)
            for train, test in ShuffleSplit(n_splits=3).split(range(10)):
                fit(train, test)
            for train, test in KFold(n_splits=5).split(range(10)):
                fit(train, test)
            for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(range(10), [0] * 10):
                fit(train, test)
            for train, test in GroupKFold(5).split(range(10), groups=range(10)):
                fit(train, test)
            np.random.seed(0)
            """
        assert findings(source, {"SL104"}) == [("SL104", 5, 20), ("SL104", 7, 20)]

    def test_a_cross_validation_given_a_shuffling_splitter_draws_at_the_call(self):
        source = """\
            import numpy as np
            import torch
            from sklearn.model_selection import KFold, cross_val_score, cross_validate

            torch.manual_seed(0)
            folds = KFold(n_splits=5, shuffle=True)
            scores = cross_val_score(model, X, y, cv=folds)
            more = cross_validate(model, X, y, cv=KFold(5, shuffle=True, random_state=0))
            plain = cross_validate(model, X, y, cv=5)
            """
        assert findings(source, {"SL105"}) == [("SL105", 7, 10)]

    def test_a_hyper_parameter_search_draws_when_fitted(self):
        source = """\
            import numpy as np
            from sklearn.model_selection import GridSearchCV, KFold, RandomizedSearchCV

            search = GridSearchCV(model, grid, cv=KFold(5, shuffle=True))
            search.fit(X, y)
            RandomizedSearchCV(model, grid, n_iter=5).fit(X, y)
            GridSearchCV(model, grid, cv=5).fit(X, y)
            RandomizedSearchCV(model, grid, random_state=0, cv=KFold(5, shuffle=True, random_state=1)).fit(X, y)
            model.fit(X, y)
            np.random.seed(0)
            """
        assert findings(source, {"SL104"}) == [("SL104", 5, 1), ("SL104", 6, 1)]


class TestEntropySeededShuffle:
    """SL109: streamed datasets' and webdataset's shuffles without a seed, in code that seeds."""

    SOURCE = """\
        import torch
        import webdataset as wds
        from datasets import load_dataset


        def main(seed):
            torch.manual_seed(seed)
            stream = load_dataset("allenai/c4", "en", split="train", streaming=True)
            stream = stream.shuffle(buffer_size=1000)
            shards = wds.WebDataset("shards-{000..009}.tar").shuffle(1000).decode("pil")
            pipeline = wds.DataPipeline(wds.SimpleShardList("a.tar"), wds.shuffle(100, rng=None))


        main(0)
        """

    def test_unseeded_streamed_and_webdataset_shuffles_are_flagged_and_fixed_with_the_script_seed(
        self,
    ):
        assert findings(self.SOURCE, {"SL109"}) == [
            ("SL109", 9, 14),
            ("SL109", 10, 14),
            ("SL109", 11, 63),
        ]
        fixed = lint(self.SOURCE, {"SL109"}, fix="unsafe")
        text = fixed.source.text
        assert "stream.shuffle(buffer_size=1000, seed=seed)" in text
        assert '.shuffle(1000, rng=random.Random(seed)).decode("pil")' in text
        assert "wds.shuffle(100, rng=random.Random(seed))" in text and "import random" in text
        assert fixed.diagnostics == []
        compile(text, "fixed.py", "exec")
        assert lint(text, {"SL109"}, fix="unsafe").source.text == text  # idempotent

    @pytest.mark.parametrize(
        "line",
        [
            "stream = stream.shuffle(seed=seed, buffer_size=1000)",
            "stream = stream.shuffle(generator=np.random.default_rng(seed))",
            'shards = wds.WebDataset("a.tar").shuffle(1000, rng=random.Random(seed))',
            'shards = wds.WebDataset("a.tar").shuffle(1000, seed=seed)',
            'shards = wds.WebDataset("a.tar").detshuffle(1000)',
            'mapped = load_dataset("imdb", split="train").shuffle()',  # NumPy global: SL104/SL105's business
            "other = deck.shuffle()",
            "items = random.shuffle(items)",
        ],
    )
    def test_seeded_deterministic_map_style_and_look_alike_shuffles_are_left_alone(self, line):
        source = self.SOURCE.replace(
            "            stream = stream.shuffle(buffer_size=1000)\n"
            '            shards = wds.WebDataset("shards-{000..009}.tar").shuffle(1000).decode("pil")\n'
            '            pipeline = wds.DataPipeline(wds.SimpleShardList("a.tar"), wds.shuffle(100, rng=None))\n',
            f"            {line}\n",
        ).replace(
            "        import torch\n",
            "        import random\n        import numpy as np\n"
            "        import torch\n        deck = object()\n        items = [1]\n",
        )
        assert codes_of(source, {"SL109"}) == []

    def test_code_that_seeds_nothing_is_left_alone(self):
        source = self.SOURCE.replace("    torch.manual_seed(seed)\n", "").replace(
            "import torch\n", ""
        )
        assert codes_of(source, {"SL109"}) == []

    def test_a_stream_opened_on_either_branch_is_one(self):
        source = self.SOURCE.replace(
            '            stream = load_dataset("allenai/c4", "en", split="train", streaming=True)\n',
            "            if local:\n"
            '                stream = load_dataset("json", data_files=path, split="train", streaming=True)\n'
            "            else:\n"
            '                stream = load_dataset("allenai/c4", "en", split="train", streaming=True)\n',
        )
        assert ("SL109", 12, 14) in findings(source, {"SL109"})
        mixed = source.replace(
            'data_files=path, split="train", streaming=True', 'data_files=path, split="train"'
        )
        assert ("SL109", 12, 14) not in findings(mixed, {"SL109"})
