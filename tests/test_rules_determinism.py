"""Behaviour of SL303 (nondeterministic CUDA ops), SL304 (PYTHONHASHSEED in process) and SL305 (cuBLAS workspace).

Every source below starts on row 1 (the `\\` after the opening quotes); columns are 1-based.
"""

from __future__ import annotations

import libcst
import pytest
from conftest import codes_of, lint
from test_project import check

from seedlint.analysis.context import AnalysisSettings
from seedlint.diagnostics import Applicability
from seedlint.gates import Gate
from seedlint.rules import RULES

OLD_TORCH = AnalysisSettings(target_torch_version=(2, 4))


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def fixed(source: str, codes, fix: str = "safe", **kwargs) -> str:
    return lint(source, codes, fix=fix, **kwargs).source.text


# ============================================================================ SL303
SEEDED_CUDA = """\
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.zeros(8, device="cuda")
"""
TRAINS = "loss.backward()\n"


def sl303(body: str, prefix: str = SEEDED_CUDA, **kwargs) -> list[tuple[str, int, int]]:
    return findings(prefix + body, {"SL303"}, **kwargs)


class TestSL303NondeterministicCudaOp:
    @pytest.mark.parametrize(
        "body",
        [
            "x.index_add_(0, index, source)\n",
            "torch.index_add(x, 0, index, source)\n",
            "buffer.scatter_add_(0, index, source)\n",
            "self.counts.scatter_add(0, index, source)\n",
            "x.scatter_reduce_(0, index, source, reduce='sum')\n",
            "x.scatter_reduce(0, index, source, 'mean')\n",
            "torch.scatter_reduce(x, 0, index, source, reduce='prod')\n",
            "x.put_(index, source, accumulate=True)\n",
            "torch.bincount(labels, weights=w)\n",
            "labels.bincount(w)\n",
            "torch.median(x, dim=0)\n",
            "torch.randn(4, 4).median(1)\n",
            "torch.Tensor.index_add_(x, 0, index, source)\n",
            "nn.MaxUnpool2d(2)\n",
            "F.max_unpool1d(x, indices, 2)\n",
        ],
    )
    def test_forward_ops_are_flagged_at_the_call(self, body):
        assert sl303(body) == [("SL303", 7, 1)]

    @pytest.mark.parametrize(
        "body",
        [
            "y = F.interpolate(x, scale_factor=2, mode='bilinear')\n",
            "y = F.interpolate(x, None, 2, 'bicubic')\n",
            "y = F.upsample(x, scale_factor=2, mode='trilinear')\n",
            "y = nn.Upsample(scale_factor=2, mode='linear')\n",
            "y = nn.UpsamplingBilinear2d(scale_factor=2)\n",
            "y = F.grid_sample(x, grid)\n",
            "y = nn.CTCLoss()\n",
            "y = nn.EmbeddingBag(10, 3, mode='max')\n",
            "y = nn.EmbeddingBag.from_pretrained(weights, mode='max')\n",
            "y = F.embedding_bag(x, weight, offsets, mode='max')\n",
            "y = nn.ReflectionPad2d(1)\n",
            "y = nn.ReplicationPad1d(2)\n",
            "y = F.pad(x, (1, 1), mode='reflect')\n",
            "y = F.pad(x, (1, 1), 'replicate')\n",
            "y = nn.AdaptiveAvgPool2d((7, 7))\n",
            "y = nn.AdaptiveAvgPool3d(2)\n",
            "y = nn.AdaptiveMaxPool2d(output_size=(2, 1))\n",
            "y = F.adaptive_avg_pool2d(x, 7)\n",
            "y = nn.FractionalMaxPool2d(3, output_size=5)\n",
            "y = nn.AvgPool3d(3, stride=2)\n",
            "y = F.max_pool3d(x, 3, 1)\n",
            "y = torch.nn.modules.pooling.AdaptiveMaxPool2d(4)\n",
        ],
    )
    def test_backward_ops_are_flagged_when_the_module_trains(self, body):
        assert sl303(body + TRAINS) == [("SL303", 7, 5)]

    @pytest.mark.parametrize(
        "body",
        [
            "y = F.interpolate(x, scale_factor=2, mode='bilinear')\n",
            "y = nn.AdaptiveAvgPool2d((7, 7))\n",
            "y = F.grid_sample(x, grid)\n",
        ],
    )
    def test_backward_ops_are_left_alone_in_code_that_never_differentiates(self, body):
        assert sl303(body) == []

    @pytest.mark.parametrize(
        "body",
        [
            "with torch.no_grad():\n    y = F.interpolate(x, scale_factor=2, mode='bilinear')\n",
            "with torch.inference_mode():\n    y = F.grid_sample(x, grid)\n",
            "with torch.set_grad_enabled(False):\n    y = F.grid_sample(x, grid)\n",
            "@torch.no_grad()\ndef evaluate(x):\n    return F.interpolate(x, scale_factor=2, mode='bilinear')\n",
            "@torch.inference_mode\ndef evaluate(x):\n    return F.grid_sample(x, grid)\n",
            "def resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bilinear')\n"
            "def evaluate(x):\n    with torch.no_grad():\n        return resize(x)\n",
            "import lightning as L\nclass Lit(L.LightningModule):\n    def validation_step(self, batch):\n"
            "        return F.interpolate(batch, scale_factor=2, mode='bilinear')\n",
            "def train(loader):\n    for images, labels in loader:\n        x = images.to('cuda').float() / 255\n"
            "        y = F.interpolate(x, scale_factor=2, mode='bilinear')\n",
            "from torch.utils.data import DataLoader\ndef train(ds):\n    data = DataLoader(ds)\n"
            "    for step, batch in enumerate(data):\n        batch = batch.cuda()\n"
            "        y = F.interpolate(batch['image'], scale_factor=2, mode='bilinear')\n",
            "depth = nn.Conv2d(3, 1, 3).cuda()\ndepth.requires_grad_(False)\ndef train(loader):\n"
            "    for batch in loader:\n        d = depth(batch.cuda())\n"
            "        y = F.interpolate(d, scale_factor=2, mode='bilinear')\n",
            "class Net(nn.Module):\n    def __init__(self, teacher):\n        super().__init__()\n"
            "        self.teacher = teacher.eval().requires_grad_(False)\n"
            "    def forward(self, x):\n        t = self.teacher(x.detach())\n"
            "        return F.interpolate(t, scale_factor=2, mode='bilinear')\n",
            "feats = backbone(x)\nfor p in backbone.parameters():\n    p.requires_grad = False\n"
            "y = F.interpolate(feats.detach(), scale_factor=2, mode='bilinear')\n",
        ],
        ids=[
            "no-grad-block",
            "inference-mode-block",
            "grad-disabled-block",
            "no-grad-decorator",
            "inference-mode-decorator-without-call",
            "called-only-under-no-grad",
            "lightning-validation-step",
            "loader-batch-converted",
            "dataloader-batch-item",
            "frozen-module-on-a-batch",
            "frozen-teacher",
            "detached",
        ],
    )
    def test_backward_ops_where_no_gradient_can_flow_are_left_alone(self, body):
        assert sl303(body + TRAINS) == []

    @pytest.mark.parametrize(
        "body, row",
        [
            (
                "def train(model, loader):\n    for batch in loader:\n        out = model(batch.cuda())\n"
                "        y = F.interpolate(out, scale_factor=2, mode='bilinear')\n"
                "        y.mean().backward()\n",
                10,
            ),
            (
                "def train(x):\n    y = F.interpolate(x, scale_factor=2, mode='bilinear')\n"
                "    return y\n",
                8,
            ),
            (
                "depth = nn.Conv2d(3, 1, 3).cuda()\ndef train(model, loader):\n    for batch in loader:\n"
                "        d = depth(batch.cuda())\n        y = F.interpolate(d, scale_factor=2, mode='bilinear')\n"
                "        model(y).mean().backward()\n",
                11,
            ),
            (
                "def resize(x):\n    return F.interpolate(x, scale_factor=2, mode='bilinear')\n"
                "def evaluate(x):\n    with torch.no_grad():\n        return resize(x)\ndef train(x):\n    return resize(x)\n",
                8,
            ),
            ("with torch.no_grad():\n    up = nn.Upsample(scale_factor=2, mode='bilinear')\n", 8),
            ("with torch.no_grad():\n    x.index_add_(0, index, source)\n", 8),
        ],
        ids=[
            "model-output",
            "parameter",
            "module-not-frozen",
            "also-called-with-grad",
            "module-built-under-no-grad",
            "forward-op-under-no-grad",
        ],
    )
    def test_ops_where_gradients_or_results_can_differ_are_still_flagged(self, body, row):
        assert [r for _, r, _ in sl303(body + TRAINS)] == [row]

    @pytest.mark.parametrize(
        "differentiation",
        [
            "scaler.scale(loss).backward()\n",
            "grads = torch.autograd.grad(loss, params)\n",
            "fabric.backward(loss)\n",
            "class Module:\n    def training_step(self, batch):\n        return batch\n",
        ],
    )
    def test_any_backward_pass_counts_as_training(self, differentiation):
        assert sl303("y = F.grid_sample(x, grid)\n" + differentiation) == [("SL303", 7, 5)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            from torch.nn.functional import interpolate as resize
            torch.manual_seed(0)
            model = model.cuda()
            y = resize(x, size=(8, 8), mode="bilinear")
            loss.backward()
            """,
            """\
            from torch import nn, manual_seed
            manual_seed(0)
            pool = nn.AdaptiveAvgPool2d((2, 2)).to("cuda")
            loss.backward()
            """,
            """\
            import torch as T
            T.manual_seed(1)
            t = T.randn(3, device="cuda:0")
            T.bincount(t, weights=t)
            """,
        ],
        ids=["from-import-alias", "from-torch-import-nn", "module-alias"],
    )
    def test_aliased_imports_are_resolved(self, source):
        assert [code for code, _, _ in findings(source, {"SL303"})] == ["SL303"]

    HELPER = "def scale_img(img, ratio):\n    return F.interpolate(img, scale_factor=ratio, mode='bilinear')\n\n\n"
    PROFILE = "def profile(x, m):\n    loss = m(x).sum()\n    loss.backward()\n"

    def test_a_backward_op_in_a_helper_this_module_never_uses_is_left_to_its_callers(self):
        # yolov5's torch_utils: `scale_img` serves test-time augmentation elsewhere; `profile()` differentiates.
        assert sl303(self.HELPER + self.PROFILE) == []

    @pytest.mark.parametrize(
        "use",
        ["y = scale_img(x, 0.5)\nloss.backward()\n", "augment = scale_img\n"],
        ids=["called", "referenced"],
    )
    def test_a_backward_op_in_a_helper_this_module_uses_is_flagged(self, use):
        assert sl303(self.HELPER + self.PROFILE + use) == [("SL303", 8, 12)]

    def test_message_names_the_op_and_what_deterministic_mode_does(self):
        (kernel,) = lint(SEEDED_CUDA + "x.index_add_(0, index, source)\n", {"SL303"}).diagnostics
        assert kernel.message.startswith("`x.index_add_` on CUDA accumulates with atomic adds")
        assert "differ from run to run" in kernel.message
        assert kernel.message.endswith(
            "`torch.use_deterministic_algorithms(True)` makes it use a deterministic kernel"
        )
        (raising,) = lint(SEEDED_CUDA + "torch.bincount(x, weights=w)\n", {"SL303"}).diagnostics
        assert raising.message.endswith("makes it raise an error instead")
        (backward,) = lint(SEEDED_CUDA + "F.grid_sample(x, g)\n" + TRAINS, {"SL303"}).diagnostics
        assert (
            "accumulates its gradients" in backward.message
            and "the gradients can differ" in backward.message
        )

    def test_each_op_call_is_one_finding(self):
        assert sl303(
            "x.index_add_(0, i, s); x.index_add_(0, i, s)\ntorch.bincount(torch.bincount(x, w), w)\n"
        ) == [("SL303", 7, 1), ("SL303", 7, 24), ("SL303", 8, 1), ("SL303", 8, 16)]

    @pytest.mark.parametrize(
        "body",
        [
            "counts.scatter_add_(1, index, torch.ones_like(index, dtype=torch.float))\n",
            "counts.scatter_add_(1, index, (o > 0).float())\n",
            "torch.scatter_add(counts, 1, index, src=torch.ones(4, device='cuda'))\n",
            "x.index_add_(0, index, x.new_ones(4))\n",
        ],
    )
    def test_adding_whole_numbers_is_exact_in_any_order(self, body):
        assert sl303(body) == []
        fractions = body.replace("torch.ones_like(index, dtype=torch.float)", "weights")
        fractions = fractions.replace("(o > 0).float()", "o.float()")
        fractions = fractions.replace("torch.ones(4, device='cuda')", "torch.rand(4)")
        fractions = fractions.replace("x.new_ones(4)", "x.new_empty(4)")
        assert sl303(fractions) == [("SL303", 7, 1)]

    @pytest.mark.parametrize("body", ["torch.histc(x, bins=10)\n", "x.histc(10)\n"])
    def test_histc_counts_are_exact_in_any_order(self, body):
        assert sl303(body) == []

    def test_a_backward_op_in_a_function_that_only_evaluates_is_left_alone(self):
        source = (
            "def validate(model, x):\n    model.eval()\n    return F.interpolate(model(x), scale_factor=2, mode='bilinear')\n\n\n"
            "def train(model, x, optimizer):\n    loss = F.interpolate(model(x), scale_factor=2, mode='bilinear').sum()\n    loss.backward()\n    optimizer.step()\n\n\n"
            "def main(model, x, optimizer):\n    train(model, x, optimizer)\n    validate(model, x)\n\n\n"
            "main(None, x, None)\n"
        )
        assert sl303(source) == [("SL303", 13, 12)]

    def test_op_inside_a_forward_method_is_flagged(self):
        source = (
            SEEDED_CUDA
            + """\
            class Net(nn.Module):
                def forward(self, x):
                    return F.interpolate(x, scale_factor=2, mode="bicubic")
            loss.backward()
            """.replace("            ", "")
        )
        assert sl303("", prefix=source) == [("SL303", 9, 16)]

    def test_seeding_through_a_declared_seed_function_counts(self):
        source = """\
            import torch
            from myproj.utils import fix_seeds
            fix_seeds(0)
            x = torch.zeros(3).cuda()
            x.index_add_(0, i, s)
            """
        settings = AnalysisSettings(seed_functions={"myproj.utils.fix_seeds": frozenset({"torch"})})
        assert findings(source, {"SL303"}) == []
        assert findings(source, {"SL303"}, settings=settings) == [("SL303", 5, 1)]

    @pytest.mark.parametrize(
        "switch",
        [
            "torch.use_deterministic_algorithms(True)\n",
            "torch.use_deterministic_algorithms(mode=True)\n",
            "torch.use_deterministic_algorithms(True, warn_only=True)\n",
            "torch.use_deterministic_algorithms(args.deterministic)\n",
            "from torch import use_deterministic_algorithms as uda\nuda(True)\n",
            "torch.set_deterministic_debug_mode('error')\n",
            "torch.set_deterministic_debug_mode(1)\n",
            "import transformers\ntransformers.enable_full_determinism(0)\n",
            "from transformers import set_seed\nset_seed(0, deterministic=True)\n",
            "from accelerate.utils import set_seed\nset_seed(0, False, True)\n",
            "import lightning as L\ntrainer = L.Trainer(deterministic=True)\n",
            "def setup():\n    torch.use_deterministic_algorithms(True)\n",
        ],
    )
    def test_deterministic_mode_anywhere_in_the_module_silences_it(self, switch):
        assert sl303("x.index_add_(0, index, source)\n" + switch) == []

    @pytest.mark.parametrize(
        "switch",
        [
            "torch.use_deterministic_algorithms(False)\n",
            "torch.set_deterministic_debug_mode('default')\n",
            "from transformers import set_seed\nset_seed(0, deterministic=False)\n",
            "import lightning as L\ntrainer = L.Trainer(deterministic=None)\n",
            "torch.backends.cudnn.deterministic = True\n",
        ],
    )
    def test_switches_that_leave_deterministic_mode_off_do_not_count(self, switch):
        assert sl303("x.index_add_(0, index, source)\n" + switch) == [("SL303", 7, 1)]

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import torch
            x = torch.zeros(8, device="cuda")
            x.index_add_(0, index, source)
            """,
            """\
            import torch
            torch.manual_seed(0)
            x = torch.zeros(8)
            x.index_add_(0, index, source)
            """,
            """\
            import torch
            torch.seed()
            x = torch.zeros(8).cuda()
            x.index_add_(0, index, source)
            """,
        ],
        ids=["no-seeding", "no-cuda", "nondeterministic-seeding"],
    )
    def test_needs_both_seeding_and_cuda(self, source):
        assert findings(source, {"SL303"}) == []

    @pytest.mark.parametrize(
        "body",
        [
            "import numpy as np\nnp.bincount(labels, weights=w)\n",
            "import numpy as np\nnp.histogram(values, bins=10)\n",
            "import numpy as np\nnp.cumsum(values)\n",
            "import numpy as np\narr = np.zeros(3)\narr.median(0)\n",
            "import numpy as np\narr = np.zeros(3)\narr.put_(i, v, accumulate=True)\n",
            "frame.median(1)\n",
            "torch.median(x)\n",
            "x.median()\n",
            "torch.cumsum(x, 0)\n",
            "x.cumsum(0)\n",
            "torch.bincount(labels)\n",
            "labels.bincount(None, 10)\n",
            "x.put_(index, source)\n",
            "x.put_(index, source, accumulate=False)\n",
            "x.index_put_((index,), source, accumulate=True)\n",
            "torch.index_put(x, (index,), source, True)\n",
            "x.scatter_reduce_(0, index, source, reduce='amax')\n",
            "x.scatter_reduce_(0, index, source, reduce=how)\n",
            "x.scatter_(0, index, source)\n",
            "torch.gather(x, 0, index)\n",
            "import torch_scatter\ntorch_scatter.scatter_add(source, index)\n",
            "from torch_scatter import scatter_add\nscatter_add(source, index)\n",
            "class Counter:\n    def index_add_(self, *a):\n        pass\n"
            "    def run(self):\n        self.index_add_(0)\n",
        ],
    )
    def test_look_alikes_are_left_alone(self, body):
        assert sl303(body) == []

    @pytest.mark.parametrize(
        "body",
        [
            "y = F.interpolate(x, scale_factor=2)\n",
            "y = F.interpolate(x, scale_factor=2, mode='nearest')\n",
            "y = F.interpolate(x, scale_factor=2, mode=args.mode)\n",
            "y = nn.Upsample(scale_factor=2)\n",
            "y = nn.AdaptiveAvgPool2d(1)\n",
            "y = nn.AdaptiveAvgPool2d((1, 1))\n",
            "y = nn.AdaptiveAvgPool3d(output_size=(1, 1, 1))\n",
            "y = nn.AdaptiveMaxPool2d(1)\n",
            "y = F.adaptive_avg_pool2d(x, 1)\n",
            "y = nn.AdaptiveAvgPool2d(size)\n",
            "y = nn.MaxPool3d(2)\n",
            "y = nn.MaxPool3d(3, stride=3)\n",
            "y = nn.AvgPool3d(kernel_size=2, stride=None)\n",
            "y = nn.MaxPool2d(3, stride=2)\n",
            "y = nn.EmbeddingBag(10, 3)\n",
            "y = nn.EmbeddingBag(10, 3, mode='sum')\n",
            "y = F.pad(x, (1, 1))\n",
            "y = F.pad(x, (1, 1), mode='circular')\n",
            "y = nn.CrossEntropyLoss()\n",
            "y = nn.NLLLoss()\n",
            "y = nn.Conv2d(3, 8, 3)\n",
            "y = nn.AdaptiveAvgPool1d(4)\n",
        ],
    )
    def test_deterministic_configurations_are_left_alone(self, body):
        assert sl303(body + TRAINS) == []

    def test_fix_is_display_only_and_changes_nothing(self):
        source = SEEDED_CUDA + "x.index_add_(0, index, source)\n"
        (diagnostic,) = lint(source, {"SL303"}).diagnostics
        assert diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
        assert diagnostic.fix.edits == ()
        assert "use_deterministic_algorithms(True)" in diagnostic.fix.message
        assert fixed(source, {"SL303"}, fix="unsafe") == source

    def test_noqa_silences_the_line(self):
        assert sl303("x.index_add_(0, index, source)  # noqa: SL303\n") == []


# ============================================================================ SL304
class TestSL303ProjectDecorators:
    """A project's decorator factory that turns grad off (`@smart_inference_mode()`) is read."""

    VAL = """\
        import torch
        import torch.nn.functional as F

        from utils.torch_utils import smart_inference_mode


        def process_batch(detections, masks):
            masks = F.interpolate(masks[None], (64, 64), mode="bilinear", align_corners=False)[0]
            return (detections * masks).sum()


        @smart_inference_mode()
        def run(model, loader):
            torch.manual_seed(0)
            for images, masks in loader:
                process_batch(model(images.cuda()), masks.cuda())
            model(torch.randn(2, 3).cuda()).sum().backward()
        """

    @pytest.mark.parametrize(
        "mode, expected",
        [
            ("(torch.inference_mode if new else torch.no_grad)()(fn)", []),
            ("torch.no_grad()(fn)", []),
            ("torch.enable_grad()(fn)", [("val.py", "SL303", 8)]),
            ("fn", [("val.py", "SL303", 8)]),
        ],
    )
    def test_a_decorator_factory_whose_code_turns_grad_off(self, write, tmp_path, mode, expected):
        write("utils/__init__.py", "")
        write(
            "utils/torch_utils.py",
            "import torch\n\n\ndef smart_inference_mode(new=True):\n"
            f"    def decorate(fn):\n        return {mode}\n\n    return decorate\n",
        )
        write("val.py", self.VAL)
        assert check(tmp_path, extra=("--select", "SL303")) == expected


class TestSL304PythonHashSeedInProcess:
    @pytest.mark.parametrize(
        "source, row, column",
        [
            ('import os\nos.environ["PYTHONHASHSEED"] = "0"\n', 2, 1),
            ("import os\nos.environ['PYTHONHASHSEED'] = str(seed)\n", 2, 1),
            ('import os\nos.environ.setdefault("PYTHONHASHSEED", "0")\n', 2, 1),
            ('import os\nos.putenv("PYTHONHASHSEED", "0")\n', 2, 1),
            ('import os\nos.environ.update(PYTHONHASHSEED="0")\n', 2, 1),
            (
                'import os\nos.environ.update({"PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"})\n',
                2,
                1,
            ),
            ('from os import environ\nenviron["PYTHONHASHSEED"] = "0"\n', 2, 1),
            ('import os as system\nsystem.environ["PYTHONHASHSEED"] = "0"\n', 2, 1),
            ('import os\nenv = os.environ\nenv["PYTHONHASHSEED"] = "0"\n', 3, 1),
            ('import os\nif x: os.environ["PYTHONHASHSEED"] = "0"\n', 2, 7),
        ],
    )
    def test_writes_are_flagged(self, source, row, column):
        assert findings(source, {"SL304"}) == [("SL304", row, column)]

    def test_seed_everything_helper_is_flagged_inside_the_function(self):
        source = """\
            import os
            import random

            import numpy as np
            import torch


            def seed_everything(seed):
                random.seed(seed)
                os.environ["PYTHONHASHSEED"] = str(seed)
                np.random.seed(seed)
                torch.manual_seed(seed)
            """
        assert findings(source, {"SL304"}) == [("SL304", 10, 5)]

    @pytest.mark.parametrize(
        "write",
        [
            "os.environ['PYHTONHASHSEED'] = str(seed)",  # the popular Kaggle seed_everything
            "os.environ.setdefault('PYTHNOHASHSEED', '0')",
            "os.environ.update(PYTHONHASHSEDE='0')",
            "os.environ['PYTHON_HASH_SEED'] = '0'",
        ],
    )
    def test_misspellings_are_flagged_even_before_a_child_starts(self, write):
        source = f"import os\nimport subprocess\n{write}\nsubprocess.run(['python', 'worker.py'])\n"
        (diagnostic,) = lint(source, {"SL304"}).diagnostics
        assert diagnostic.start.row == 3
        assert (
            "is not a variable Python reads (it is `PYTHONHASHSEED` misspelled)"
            in diagnostic.message
        )
        assert "would not affect the running interpreter" in diagnostic.message

    def test_every_swap_of_two_neighbouring_letters_is_flagged(self):
        variable = "PYTHONHASHSEED"
        swaps = {
            variable[:i] + variable[i + 1] + variable[i] + variable[i + 2 :]
            for i in range(len(variable) - 1)
        }
        for name in swaps - {variable}:
            assert codes_of(f"import os\nos.putenv('{name}', '0')\n", {"SL304"}) == ["SL304"], name

    @pytest.mark.parametrize(
        "name",
        [
            "pythonhashseed",
            "PythonHashSeed",
            "PYTHONHASHSEEDS",
            "MY_HASH_SEED",
            "HASHSEED",
            "PYTHON_SEED",
            "TORCH_SEED",
        ],
    )
    def test_other_names_are_not_misspellings(self, name):
        assert findings(f"import os\nos.environ['{name}'] = '0'\n", {"SL304"}) == []

    def test_message_says_it_only_reaches_child_processes(self):
        (diagnostic,) = lint(
            'import os\nos.environ["PYTHONHASHSEED"] = "0"\n', {"SL304"}
        ).diagnostics
        assert "does not affect the running interpreter" in diagnostic.message
        assert "only child processes started later" in diagnostic.message
        assert (
            diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
            and diagnostic.fix.edits == ()
        )
        assert "PYTHONHASHSEED=0 python" in diagnostic.help

    @pytest.mark.parametrize(
        "source",
        [
            'import os\nseed = os.environ.get("PYTHONHASHSEED")\n',
            'import os\nprint(os.environ["PYTHONHASHSEED"])\n',
            'import os\nos.environ["PYTHONHASHSEEDS"] = "0"\n',
            'import os\nos.environ["OMP_NUM_THREADS"] = "1"  # PYTHONHASHSEED is set by the launcher\n',
            'environ = {}\nenviron["PYTHONHASHSEED"] = "0"\n',
            'import os\nenv = dict(os.environ)\nenv["PYTHONHASHSEED"] = "0"\n',
            'import os\nenv = os.environ.copy()\nenv.update(PYTHONHASHSEED="0")\n',
            'import os\nos.environ.pop("PYTHONHASHSEED", None)\n',
            'import os\nos.environ.setdefault(key, "0")  # PYTHONHASHSEED\n',
        ],
    )
    def test_reads_and_other_variables_are_left_alone(self, source):
        assert findings(source, {"SL304"}) == []

    @pytest.mark.parametrize(
        "launch",
        [
            "subprocess.run([sys.executable, 'worker.py'])",
            "os.execv(sys.executable, [sys.executable, *sys.argv])",
            "os.system('python worker.py')",
        ],
    )
    def test_modules_that_start_new_interpreters_are_left_alone(self, launch):
        source = f'import os\nimport subprocess\nimport sys\nos.environ["PYTHONHASHSEED"] = "0"\n{launch}\n'
        assert findings(source, {"SL304"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            """\
            import os
            import subprocess
            def relaunch():
                os.environ["PYTHONHASHSEED"] = "0"
                run_child()
            def run_child():
                subprocess.run(["python", "worker.py"])
            """,
            """\
            import os
            import subprocess
            def set_env():
                os.environ["PYTHONHASHSEED"] = "0"
            def main():
                set_env()
                subprocess.run(["python", "worker.py"])
            """,
            """\
            import os
            import torch.multiprocessing as mp
            os.environ["PYTHONHASHSEED"] = "0"
            mp.spawn(worker, nprocs=2)
            """,
        ],
        ids=[
            "through-a-local-function",
            "a-caller-launches-after-the-call",
            "spawned-interpreters",
        ],
    )
    def test_a_write_followed_by_starting_an_interpreter_is_left_alone(self, source):
        assert findings(source, {"SL304"}) == []

    @pytest.mark.parametrize(
        "source, row",
        [
            (
                """\
            import os
            import random
            import subprocess
            def set_seed(seed):
                os.environ["PYTHONHASHSEED"] = str(seed)
                random.seed(seed)
            def git_hash():
                return subprocess.check_output(["git", "rev-parse", "HEAD"])
            """,
                5,
            ),
            (
                """\
            import os
            import subprocess
            def main():
                subprocess.run(["nvidia-smi"])
                os.environ["PYTHONHASHSEED"] = "0"
            """,
                5,
            ),
        ],
        ids=["helper-beside-an-unrelated-subprocess", "subprocess-before-the-write"],
    )
    def test_a_write_no_interpreter_start_follows_is_flagged(self, source, row):
        # Distilled from training utilities: a seeding helper in a module that also shells out to git.
        assert findings(source, {"SL304"}) == [("SL304", row, 5)]

    def test_fix_changes_nothing(self):
        source = 'import os\nos.environ["PYTHONHASHSEED"] = "0"\n'
        assert fixed(source, {"SL304"}, fix="unsafe") == source


# ============================================================================ SL305
DETERMINISTIC_ON_CUDA = """\
import torch

torch.use_deterministic_algorithms(True)
model = model.cuda()
"""


class TestSL305CublasWorkspaceConfig:
    @pytest.mark.parametrize("version", [(2, 4), (1, 13), (2, 9)])
    def test_flagged_for_torch_before_2_10(self, version):
        settings = AnalysisSettings(target_torch_version=version)
        assert findings(DETERMINISTIC_ON_CUDA, {"SL305"}, settings=settings) == [("SL305", 3, 1)]

    @pytest.mark.parametrize("version", [None, (2, 10), (2, 13), (3, 0)])
    def test_silent_for_newer_or_unknown_torch(self, version):
        settings = AnalysisSettings(target_torch_version=version)
        assert findings(DETERMINISTIC_ON_CUDA, {"SL305"}, settings=settings) == []

    def test_message_names_the_version_and_the_values(self):
        (diagnostic,) = lint(DETERMINISTIC_ON_CUDA, {"SL305"}, settings=OLD_TORCH).diagnostics
        assert "torch 2.4 raises a RuntimeError at the first cuBLAS call" in diagnostic.message
        assert "`:4096:8` or `:16:8`" in diagnostic.message
        assert diagnostic.message.endswith("this code never sets it")

    @pytest.mark.parametrize(
        "switch",
        [
            "torch.use_deterministic_algorithms(True, warn_only=True)",
            "torch.use_deterministic_algorithms(mode=args.deterministic)",
            "torch.set_deterministic_debug_mode('error')",
        ],
    )
    def test_other_ways_of_turning_it_on_are_flagged(self, switch):
        source = f"import torch\n{switch}\nx = torch.ones(2, device='cuda')\n"
        assert findings(source, {"SL305"}, settings=OLD_TORCH) == [("SL305", 2, 1)]

    def test_aliased_switch_is_flagged(self):
        source = """\
            from torch import use_deterministic_algorithms as uda
            uda(True)
            net = DataParallel(net).cuda()
            """
        assert findings(source, {"SL305"}, settings=OLD_TORCH) == [("SL305", 2, 1)]

    @pytest.mark.parametrize(
        "source",
        [
            "import torch\ntorch.use_deterministic_algorithms(True)\nx = torch.ones(2)\n",
            "import torch\ntorch.use_deterministic_algorithms(False)\nx = torch.ones(2).cuda()\n",
            "import torch\ntorch.set_deterministic_debug_mode(0)\nx = torch.ones(2).cuda()\n",
            "import torch\nx = torch.ones(2).cuda()\n",
            "import transformers\ntransformers.enable_full_determinism(0)\nx = x.cuda()\n",
        ],
        ids=["no-cuda", "mode-false", "debug-mode-default", "no-switch", "helper"],
    )
    def test_left_alone_without_deterministic_mode_on_cuda(self, source):
        assert findings(source, {"SL305"}, settings=OLD_TORCH) == []

    @pytest.mark.parametrize(
        "setting",
        [
            'os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"',
            'os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":16:8"',
            'os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")',
            'os.putenv("CUBLAS_WORKSPACE_CONFIG", ":16:8")',
            'os.environ.update(CUBLAS_WORKSPACE_CONFIG=":4096:8")',
            'os.environ.update({"CUBLAS_WORKSPACE_CONFIG": ":4096:8"})',
            'os.environ["CUBLAS_WORKSPACE_CONFIG"] = config.cublas',
        ],
    )
    def test_setting_the_variable_anywhere_silences_it(self, setting):
        source = f"import os\n\n{DETERMINISTIC_ON_CUDA}\ndef main():\n    {setting}\n"
        assert findings(source, {"SL305"}, settings=OLD_TORCH) == []

    def test_another_literal_value_is_flagged_with_a_display_only_fix(self):
        source = (
            'import os\nos.environ["CUBLAS_WORKSPACE_CONFIG"] = ":0:0"\n' + DETERMINISTIC_ON_CUDA
        )
        (diagnostic,) = lint(source, {"SL305"}, settings=OLD_TORCH).diagnostics
        assert diagnostic.message.endswith("this code sets it to another value")
        assert (
            diagnostic.fix.applicability is Applicability.DISPLAY_ONLY
            and diagnostic.fix.edits == ()
        )

    def test_only_the_first_switch_is_flagged(self):
        source = DETERMINISTIC_ON_CUDA + "torch.use_deterministic_algorithms(True)\n"
        assert findings(source, {"SL305"}, settings=OLD_TORCH) == [("SL305", 3, 1)]

    def test_fix_adds_import_os_and_the_setting_before_the_switch(self):
        assert fixed(DETERMINISTIC_ON_CUDA, {"SL305"}, settings=OLD_TORCH) == (
            "import torch\n"
            "import os\n"
            "\n"
            'os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")\n'
            "torch.use_deterministic_algorithms(True)\n"
            "model = model.cuda()\n"
        )

    def test_fix_reuses_existing_imports_and_keeps_indentation_and_comments(self):
        source = """\
            from os import environ
            import torch


            def main():
                # determinism for the paper's tables
                torch.use_deterministic_algorithms(True)  # keep
                model.to("cuda")
            """
        assert fixed(source, {"SL305"}, settings=OLD_TORCH).splitlines()[5:8] == [
            "    # determinism for the paper's tables",
            '    environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")',
            "    torch.use_deterministic_algorithms(True)  # keep",
        ]

    def test_fix_spells_an_aliased_os(self):
        source = "import os as system\nimport torch\ntorch.use_deterministic_algorithms(True)\nx.cuda()\n"
        assert fixed(source, {"SL305"}, settings=OLD_TORCH) == (
            "import os as system\nimport torch\n"
            'system.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")\n'
            "torch.use_deterministic_algorithms(True)\nx.cuda()\n"
        )

    def test_fix_is_safe_idempotent_and_parses(self):
        (diagnostic,) = lint(DETERMINISTIC_ON_CUDA, {"SL305"}, settings=OLD_TORCH).diagnostics
        assert diagnostic.fix.applicability is Applicability.SAFE
        once = fixed(DETERMINISTIC_ON_CUDA, {"SL305"}, settings=OLD_TORCH)
        libcst.parse_module(once)
        assert fixed(once, {"SL305"}, settings=OLD_TORCH) == once
        assert lint(once, {"SL305"}, settings=OLD_TORCH).diagnostics == []

    def test_fix_on_a_one_line_suite_parses(self):
        source = "import os, torch\nif deterministic: torch.use_deterministic_algorithms(True)\nx.cuda()\n"
        result = fixed(source, {"SL305"}, settings=OLD_TORCH)
        libcst.parse_module(result)
        assert (
            'if deterministic: os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8"); torch.'
            in result
        )


# ============================================================================ SL306
class TestSL306AssignedInsteadOfCalled:
    @pytest.mark.parametrize(
        "line, message",
        [
            ("torch.use_deterministic_algorithms = True", "so deterministic algorithms stay off"),
            ("T.manual_seed = 0", "so the torch CPU and CUDA generators are not seeded"),
            ("np.random.seed = args.seed", "so the NumPy global generator is not seeded"),
            ("random.seed = SEED + 1", "so the Python `random` generator is not seeded"),
            ("T.cuda.manual_seed_all = cfg.seed", "so the CUDA generator is not seeded"),
            ("seed_everything = 42", None),  # a local name: rebinding it is allowed
        ],
    )
    def test_a_seeding_function_or_switch_given_a_value_is_flagged(self, line, message):
        header = (
            "import random\nimport numpy as np\nimport torch\nimport torch as T\n"
            "from lightning import seed_everything\n"
        )
        diagnostics = lint(header + line + "\n", {"SL306"}).diagnostics
        if message is None:
            assert diagnostics == []
            return
        (diagnostic,) = diagnostics
        assert (diagnostic.start.row, diagnostic.start.column) == (6, 1)
        assert message in diagnostic.message and "instead of calling it" in diagnostic.message

    @pytest.mark.parametrize(
        "line",
        [
            "def patched_manual_seed(seed):\n    pass\ntorch.manual_seed = patched_manual_seed",  # a patch, defined here
            "torch.manual_seed = lambda seed: None",
            "torch.backends.cudnn.deterministic = True",  # an attribute meant to be assigned
            "torch.use_deterministic_algorithms(True)",
            "args.seed = 0",
            "self.manual_seed = 0",
        ],
    )
    def test_look_alikes_are_left_alone(self, line):
        assert findings("import torch\n" + line + "\n", {"SL306"}) == []

    def test_unsafe_fix_calls_it_and_keeps_the_comment(self):
        source = "import torch\ntorch.use_deterministic_algorithms = True  # determinism\ntorch.manual_seed = 0\n"
        expected = "import torch\ntorch.use_deterministic_algorithms(True)  # determinism\ntorch.manual_seed(0)\n"
        assert fixed(source, {"SL306"}, fix="unsafe") == expected
        assert fixed(source, {"SL306"}, fix="safe") == source
        assert fixed(expected, {"SL306"}, fix="unsafe") == expected

    def test_a_chained_assignment_is_reported_without_a_fix(self):
        (diagnostic,) = lint("import torch\na = torch.manual_seed = 0\n", {"SL306"}).diagnostics
        assert diagnostic.fix is None

    @pytest.mark.parametrize(
        "text, opened",
        [
            (b"torch.manual_seed = 0\n", True),
            (b"(torch\n    .cuda.manual_seed_all) = 0\n", True),
            (b"torch.use_deterministic_algorithms \\\n    = True\n", True),
            # a file that only calls or mentions seeding is not parsed for this rule
            (b"torch.manual_seed(0)  # seed = 0\nargs.seed_value = 1\n", False),
            (b"if torch.manual_seed == patched:\n    pass\n", False),
        ],
    )
    def test_only_an_assignment_to_a_seeding_name_opens_the_file(self, text, opened):
        rule = RULES["SL306"]()
        assert (Gate().rules_for([rule], text, "t.py") == [rule]) is opened
