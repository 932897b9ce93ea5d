"""The shared analysis layer: name resolution (`analysis/index.py`) and execution-order flows (`analysis/flow.py`)."""

from __future__ import annotations

import textwrap

import libcst
import pytest
from conftest import codes_of, lint

from seedlint.analysis import catalog
from seedlint.analysis.context import AnalysisSettings
from seedlint.analysis.events import Flow
from seedlint.analysis.flow import EffectClassifier, FlowBuilder
from seedlint.analysis.index import ModuleIndex


def index_of(source: str, module_name: str = "train") -> tuple[libcst.Module, ModuleIndex]:
    module = libcst.parse_module(textwrap.dedent(source))
    return module, ModuleIndex(module, module_name)


def callees(source: str, module_name: str = "train") -> list[tuple[str, str | None]]:
    """(callee as written, its qualified name) for every call, in evaluation order."""
    module, index = index_of(source, module_name)
    return [
        (module.code_for_node(call.func), index.qualify(call.func, scope))
        for call, scope in index.all_calls
    ]


def flows_of(source: str, seed_functions=None) -> tuple[libcst.Module, list[Flow]]:
    module, index = index_of(source)
    return module, FlowBuilder(index, EffectClassifier(index, seed_functions or {})).build()


def module_flow(source: str, seed_functions=None) -> tuple[libcst.Module, Flow]:
    """The flow of the module body (the source must seed, or the flow may not be built at all)."""
    module, flows = flows_of(source, seed_functions)
    (flow,) = [flow for flow in flows if flow.root is None]
    return module, flow


def last_effect(source: str, seed_functions=None):
    """What the last call of a snippet does to the global generators (None: nothing)."""
    _, index = index_of(source)
    classifier = EffectClassifier(index, seed_functions or {})
    call, scope = index.all_calls[-1]
    return classifier.effect(call, scope)


def events(flow: Flow) -> list[tuple[str, str]]:
    return [(event.kind, event.effect.qualified) for event in flow.events]


def call_trail(module: libcst.Module, event) -> list[str]:
    """The calls that lead from the flow's entry to an event, as written."""
    return [module.code_for_node(step.call) for step in event.trail if step.call is not None]


# ====================================================================== resolution
class TestQualifiedNames:
    @pytest.mark.parametrize(
        "source, expected",
        [
            ("import torch.backends.cudnn as cudnn\ncudnn.flags()\n", "torch.backends.cudnn.flags"),
            (
                "import torch.backends.cudnn\ntorch.backends.cudnn.flags()\n",
                "torch.backends.cudnn.flags",
            ),
            ("from torch import manual_seed as ms\nms(0)\n", "torch.manual_seed"),
            (
                "from torch.utils.data.distributed import DistributedSampler\nDistributedSampler(d)\n",
                "torch.utils.data.distributed.DistributedSampler",
            ),
            ("import numpy as np\nnp.random.rand()\n", "numpy.random.rand"),
            ("from numpy import random as npr\nnpr.rand()\n", "numpy.random.rand"),
            ("from random import shuffle\nshuffle(x)\n", "random.shuffle"),
            ("import torch.utils.data as tud\ntud.DataLoader(d)\n", "torch.utils.data.DataLoader"),
            (
                "import torch\ncudnn = torch.backends.cudnn\ncudnn.flags()\n",
                "torch.backends.cudnn.flags",
            ),
            ("import torch\nset_seed = torch.manual_seed\nset_seed(0)\n", "torch.manual_seed"),
            ("import lightning as L\nL.seed_everything(1)\n", "lightning.seed_everything"),
            ("setattr(a, 'b', 1)\n", "builtins.setattr"),
        ],
        ids=[
            "import-as",
            "import-dotted",
            "from-import-as",
            "from-dotted-import",
            "numpy-as-np",
            "from-numpy-random",
            "from-random",
            "module-alias",
            "assigned-alias",
            "assigned-function",
            "lightning-as-L",
            "builtin",
        ],
    )
    def test_imports_and_aliases_resolve(self, source, expected):
        assert callees(source)[-1][1] == expected

    def test_instances_are_typed_by_the_call_that_made_them(self):
        source = """\
            import torch
            g = torch.Generator()
            g.manual_seed(0)
            h = torch.Generator().manual_seed(1)
            h.seed()
            """
        assert callees(source) == [
            ("torch.Generator", "torch.Generator"),
            ("g.manual_seed", "torch.Generator().manual_seed"),
            ("torch.Generator", "torch.Generator"),
            ("torch.Generator().manual_seed", "torch.Generator().manual_seed"),
            ("h.seed", "torch.Generator().seed"),  # manual_seed returns the generator itself
        ]

    def test_instance_of_an_imported_class(self):
        source = "import lightning as L\nfabric = L.Fabric()\nfabric.seed_everything(1)\n"
        assert callees(source)[-1] == (
            "fabric.seed_everything",
            "lightning.Fabric().seed_everything",
        )

    def test_relative_imports_resolve_against_the_package(self):
        source = (
            "from .utils import set_seed\nfrom . import helpers\nfrom ..core import build\n"
            "set_seed(0)\nhelpers.go()\nbuild()\n"
        )
        assert [q for _, q in callees(source, "pkg.sub.train")] == [
            "pkg.sub.utils.set_seed",
            "pkg.sub.helpers.go",
            "pkg.core.build",
        ]

    def test_local_definitions_are_qualified_by_module(self):
        source = """\
            class Net:
                def reset(self):
                    self.init()
                def init(self):
                    pass
            def build():
                return Net()
            model = build()
            """
        assert callees(source) == [
            ("self.init", "train.Net().init"),
            ("Net", "train.Net"),
            ("build", "train.build"),
        ]

    def test_a_modules_train_returns_it_unless_its_class_defines_its_own(self):
        source = """\
            import torch
            class GCN(torch.nn.Module):
                def train(self, epochs):
                    return [0.0] * epochs
            class Net(torch.nn.Module):
                pass
            losses = GCN().train(3)
            losses.append(1.0)
            net = Net().train()
            net.eval()
            """
        found = dict(callees(source))
        assert found["losses.append"] == "train.GCN().train().append"  # not the module
        assert found["net.eval"] == "train.Net().eval"

    def test_self_attribute_set_in_init_is_typed_in_other_methods(self):
        source = """\
            import torch
            class Trainer:
                def __init__(self):
                    self.g = torch.Generator(device="cuda")
                def run(self):
                    self.g.manual_seed(0)
            """
        assert callees(source)[-1] == ("self.g.manual_seed", "torch.Generator().manual_seed")

    def test_function_local_import_is_visible_only_in_that_function(self):
        source = """\
            def f():
                import numpy as np
                np.random.rand()
            np.random.rand()
            """
        assert [q for _, q in callees(source)] == ["numpy.random.rand", None]

    def test_parameter_shadows_a_module(self):
        source = "import torch\ndef f(torch):\n    torch.manual_seed(0)\n"
        assert callees(source) == [("torch.manual_seed", None)]

    def test_class_scope_is_not_visible_from_methods(self):
        source = """\
            import numpy as np
            class A:
                rng = np.random
                def f(self):
                    rng.rand()
            """
        assert callees(source) == [("rng.rand", None)]

    def test_conflicting_rebinding_is_ambiguous(self):
        source = "import numpy as np\nif fast:\n    np = None\nnp.random.rand()\n"
        assert callees(source) == [("np.random.rand", None)]

    def test_repeating_the_same_import_is_not_ambiguous(self):
        source = "import numpy as np\nimport numpy as np\nnp.random.rand()\n"
        assert callees(source) == [("np.random.rand", "numpy.random.rand")]

    @pytest.mark.parametrize("source", ["foo.bar()\n", "(lambda: 1)()\n", "a[0]()\n"])
    def test_unknown_callees_are_none(self, source):
        assert callees(source)[0][1] is None

    def test_calls_are_listed_in_evaluation_order(self):
        source = "import torch\nx = torch.manual_seed(int(torch.randint(0, 9, (1,))))\n"
        assert [written for written, _ in callees(source)] == [
            "torch.randint",
            "int",
            "torch.manual_seed",
        ]

    def test_subclasses_of_imported_bases_through_local_bases(self):
        _, index = index_of("""\
            from torch.utils.data import DistributedSampler
            class Base(DistributedSampler):
                pass
            class Bucket(Base):
                pass
            class Other:
                pass
            """)
        bases = frozenset({"torch.utils.data.DistributedSampler"})
        assert index.subclasses_of(index.classes["train.Bucket"], bases)
        assert not index.subclasses_of(index.classes["train.Other"], bases)

    def test_statement_blocks_follow_execution_order(self):
        module, index = index_of("""\
            try:
                a()
            except ValueError:
                b()
            else:
                c()
            finally:
                d()
            """)
        (statement,) = index.statements[module]
        blocks = [
            [module.code_for_node(s.node) for s in block]
            for block in index.blocks_of(statement.node)
        ]
        assert blocks == [["a()"], ["b()"], ["c()"], ["d()"]]


# =========================================================================== flows
SCRIPT = """\
import numpy as np
import torch


def set_seed(seed):
    torch.manual_seed(seed)
    np.random.seed(seed)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)

    def forward(self, x):
        return torch.dropout(x, 0.5, True)


def main():
    set_seed(0)
    model = Net()


if __name__ == "__main__":
    main()
"""


class TestFlows:
    def test_module_flow_follows_main_guard_helpers_and_class_init(self):
        module, flow = module_flow(SCRIPT)
        assert events(flow) == [
            ("seed", "torch.manual_seed"),
            ("seed", "numpy.random.seed"),
            ("draw", "torch.nn.Linear"),
        ]
        assert [call_trail(module, event) for event in flow.events] == [
            ["main()", "set_seed(0)", "torch.manual_seed(seed)"],
            ["main()", "set_seed(0)", "np.random.seed(seed)"],
            ["main()", "Net()", "torch.nn.Linear(2, 2)"],
        ]

    def test_seeding_state_of_the_module_flow(self):
        _, flow = module_flow(SCRIPT)
        assert flow.is_seeding
        assert flow.seeds() == flow.events[:2]
        assert flow.seeded_generators() == {catalog.TORCH_CPU, catalog.CUDA, catalog.NUMPY}

    def test_functions_nothing_calls_are_their_own_entry_points(self):
        module, flows = flows_of("""\
            import torch


            def set_seed(seed):
                torch.manual_seed(seed)


            def train():
                set_seed(0)
                model = torch.nn.Linear(2, 2)


            def evaluate():
                noise = torch.randn(3)
                set_seed(1)
            """)
        seeding = [flow for flow in flows if flow.is_seeding]
        # set_seed() is reached from train() and evaluate(), so it is no entry point of its own
        assert [flow.root.qualified for flow in seeding] == ["train.train", "train.evaluate"]
        assert [events(flow) for flow in seeding] == [
            [("seed", "torch.manual_seed"), ("draw", "torch.nn.Linear")],
            [("draw", "torch.randn"), ("seed", "torch.manual_seed")],
        ]

    def test_code_that_never_seeds_has_no_seeding_flow(self):
        _, flows = flows_of("""\
            import torch
            NOISE = torch.randn(3)
            def layer():
                return torch.nn.Linear(2, 2)
            """)
        assert [flow for flow in flows if flow.is_seeding] == []

    def test_seeding_under_if_args_seed_counts(self):
        _, flow = module_flow(
            "import torch\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n"
        )
        assert flow.is_seeding

    def test_methods_called_on_local_instances_are_followed(self):
        module, flow = module_flow("""\
            import torch
            class Net:
                def reset(self):
                    self.init()
                def init(self):
                    torch.nn.init.normal_(self.w)
            model = Net()
            model.reset()
            torch.manual_seed(0)
            """)
        assert events(flow) == [("draw", "torch.nn.init.normal_"), ("seed", "torch.manual_seed")]
        assert call_trail(module, flow.events[0]) == [
            "model.reset()",
            "self.init()",
            "torch.nn.init.normal_(self.w)",
        ]

    def test_recursion_terminates(self):
        _, flow = module_flow(
            "import torch\ndef f(n):\n    f(n - 1)\n    return torch.randn(1)\nf(3)\n"
            "torch.manual_seed(0)\n"
        )
        assert events(flow) == [("draw", "torch.randn"), ("seed", "torch.manual_seed")]

    def test_mutual_recursion_terminates(self):
        _, flow = module_flow(
            "import torch\ndef a():\n    b()\ndef b():\n    a()\n    torch.manual_seed(0)\na()\n"
        )
        assert events(flow) == [("seed", "torch.manual_seed")]

    def test_compound_statements_are_walked_in_source_order(self):
        _, flow = module_flow("""\
            import torch
            try:
                a = torch.randn(1)
            except ValueError:
                b = torch.rand(1)
            else:
                c = torch.randint(0, 2, (1,))
            finally:
                d = torch.randperm(3)
            for i in range(torch.randint(1, 3, (1,)).item()):
                e = torch.bernoulli(p)
            torch.manual_seed(0)
            """)
        assert [qualified for _, qualified in events(flow)] == [
            "torch.randn",
            "torch.rand",
            "torch.randint",
            "torch.randperm",
            "torch.randint",
            "torch.bernoulli",
            "torch.manual_seed",
        ]

    def test_lambda_bodies_are_not_run(self):
        _, flow = module_flow("import torch\nf = lambda: torch.randn(3)\ntorch.manual_seed(0)\n")
        assert events(flow) == [("seed", "torch.manual_seed")]

    def test_seeding_call_arguments_run_before_it(self):
        _, flow = module_flow("import torch\ntorch.manual_seed(int(torch.randint(0, 9, (1,))))\n")
        assert events(flow) == [("draw", "torch.randint"), ("seed", "torch.manual_seed")]


class TestEffects:
    @pytest.mark.parametrize(
        "call, generators",
        [
            ("torch.manual_seed(0)", {catalog.TORCH_CPU, catalog.CUDA}),
            ("torch.cuda.manual_seed(0)", {catalog.CUDA_CURRENT}),
            ("torch.cuda.manual_seed_all(0)", {catalog.CUDA}),
            ("torch.default_generator.manual_seed(0)", {catalog.TORCH_CPU}),
            ("np.random.seed(0)", {catalog.NUMPY}),
            ("random.seed(0)", {catalog.PYTHON_RANDOM}),
            ("lightning.seed_everything(0)", catalog.EVERYTHING),
            ("transformers.set_seed(0)", catalog.EVERYTHING),
            ("fairseq.utils.set_torch_seed(0)", {catalog.TORCH_CPU, catalog.CUDA}),
            ("monai.utils.set_determinism(seed=0)", catalog.EVERYTHING),
            ("monai.utils.set_determinism()", catalog.EVERYTHING),  # seeds with its fixed default
        ],
    )
    def test_what_each_seeding_call_seeds(self, call, generators):
        imports = "import random, torch, lightning, transformers, fairseq.utils, monai.utils\nimport numpy as np\n"
        effect = last_effect(f"{imports}{call}\n")
        assert (effect.kind, effect.deterministic, effect.generators) == ("seed", True, generators)

    @pytest.mark.parametrize(
        "call",
        [
            "random.seed()",
            "np.random.seed(None)",
            "torch.manual_seed(int(time.time()))",
            "detectron2.utils.env.seed_all_rng()",
            "monai.utils.set_determinism(seed=None)",
            "monai.utils.set_determinism(None)",
        ],
    )
    def test_random_seeding_is_not_deterministic(self, call):
        effect = last_effect(
            f"import random, time, torch, detectron2.utils.env, monai.utils\nimport numpy as np\n{call}\n"
        )
        assert (effect.kind, effect.deterministic) == ("seed", False)

    @pytest.mark.parametrize(
        "call, generators",
        [
            ("torch.seed()", frozenset({catalog.TORCH_CPU, catalog.CUDA})),
            ("torch.cuda.seed_all()", frozenset({catalog.CUDA})),
            (
                "torch.Generator().seed()",
                frozenset(),
            ),  # an object of the program's, not a global generator
        ],
    )
    def test_reseeders_are_not_seeding_and_name_what_they_reseed(self, call, generators):
        effect = last_effect(f"import torch\n{call}\n")
        assert (effect.kind, effect.deterministic, effect.generators) == (
            "reseed",
            False,
            generators,
        )

    @pytest.mark.parametrize(
        "call, generator",
        [
            ("torch.randn(3)", catalog.TORCH_CPU),
            ('torch.randn(3, device="cuda")', catalog.CUDA),
            ('torch.rand(2, device="cuda:1")', catalog.CUDA),
            ("w.uniform_()", catalog.TORCH_CPU),
            ("torch.nn.Conv2d(3, 8, 3)", catalog.TORCH_CPU),
            ("np.random.permutation(10)", catalog.NUMPY),
            ("random.choice(items)", catalog.PYTHON_RANDOM),
        ],
    )
    def test_draws_and_their_generator(self, call, generator):
        effect = last_effect(f"import random, torch\nimport numpy as np\n{call}\n")
        assert (effect.kind, effect.generators) == ("draw", {generator})

    @pytest.mark.parametrize(
        "call",
        [
            "torch.randn(3, generator=g)",
            "w.uniform_(generator=g)",
            "torch.zeros(3)",
            "torch.nn.BatchNorm2d(8)",
            "torch.nn.LayerNorm(8)",
            "np.random.default_rng(0)",
            "rng.normal()",
        ],
    )
    def test_non_draws(self, call):
        prelude = "import random, torch\nimport numpy as np\nrng = np.random.default_rng(0)\n"
        assert last_effect(f"{prelude}{call}\n") is None

    @pytest.mark.parametrize(
        "call, kind, generator",
        [
            ("np.random.get_state()", "save", catalog.NUMPY),
            ("random.getstate()", "save", catalog.PYTHON_RANDOM),
            ("torch.get_rng_state()", "save", catalog.TORCH_CPU),
            ("np.random.set_state(s)", "restore", catalog.NUMPY),
            ("random.setstate(s)", "restore", catalog.PYTHON_RANDOM),
            ("torch.set_rng_state(s)", "restore", catalog.TORCH_CPU),
            ("torch.random.fork_rng()", "save", catalog.TORCH_CPU),
        ],
    )
    def test_state_saves_and_restores_are_neither_draws_nor_seeds(self, call, kind, generator):
        effect = last_effect(f"import random, torch\nimport numpy as np\n{call}\n")
        assert effect.kind == kind and generator in effect.generators

    def test_project_seed_functions_from_settings(self):
        seed_functions = {"myproj.utils.fix_seeds": frozenset({catalog.TORCH_CPU, catalog.NUMPY})}
        effect = last_effect("import myproj.utils as mu\nmu.fix_seeds(0)\n", seed_functions)
        assert (effect.kind, effect.qualified, effect.generators) == (
            "seed",
            "myproj.utils.fix_seeds",
            {catalog.TORCH_CPU, catalog.NUMPY},
        )


# ================================================================ through the rules
class TestResolutionInRules:
    """The same resolution, seen through a rule's findings."""

    def test_project_helper_declared_in_settings_is_the_seeding(self):
        settings = AnalysisSettings(
            seed_functions={
                "myproj.utils.fix_seeds": frozenset({"torch", "cuda", "numpy", "random"})
            }
        )
        source = (
            "import torch\nfrom myproj.utils import fix_seeds\nx = torch.randn(3)\nfix_seeds(0)\n"
        )
        assert codes_of(source, {"SL104"}, settings=settings) == ["SL104"]
        assert codes_of(source, {"SL104"}) == []  # unknown helper: no seeding flow

    def test_relative_import_of_a_declared_helper_inside_a_package(self, tmp_path):
        package = tmp_path / "myproj"
        package.mkdir()
        (package / "__init__.py").write_text("")
        settings = AnalysisSettings(
            seed_functions={"myproj.utils.fix_seeds": frozenset({"torch", "cuda"})}
        )
        source = "import torch\nfrom .utils import fix_seeds\nx = torch.randn(3)\nfix_seeds(0)\n"
        result = lint(source, {"SL104"}, path=str(package / "train.py"), settings=settings)
        assert [(d.code, d.start.row) for d in result.diagnostics] == [("SL104", 3)]


# Reaching bindings: two assignments to one name are two values.
REACHING = """
def main(args):
    checkpoint = load(args.teacher)  # teacher
    if args.finetune:
        checkpoint = load(args.finetune)  # finetune
    if args.resume:
        if args.url:
            checkpoint = load_url(args.resume)  # url
        else:
            checkpoint = load(args.resume)  # file
        read(checkpoint)  # read-resume
    read(checkpoint)  # read-after
    for step in range(3):
        read(checkpoint)  # read-loop
        with open(step) as checkpoint:  # with
            pass
    try:
        checkpoint = load(0)  # try
    finally:
        pass
    read(checkpoint)  # read-try
    checkpoint += 1  # augmented
    read(checkpoint)  # read-augmented
"""


@pytest.mark.parametrize(
    ("read", "expected"),
    [
        ("read-resume", {"url", "file"}),
        ("read-after", {"url", "file", "finetune", "teacher"}),
        ("read-loop", {"url", "file", "finetune", "teacher", "with"}),
        ("read-try", {"try", "with", "url", "file", "finetune", "teacher"}),
        ("read-augmented", {"augmented", "try", "with", "url", "file", "finetune", "teacher"}),
    ],
)
def test_reaching_bindings_follow_each_path_back_to_its_last_binding(read, expected):
    from seedlint.analysis.bindings import reaching_bindings

    module, index = index_of(REACHING)

    def label(statement):
        line = module.code_for_node(statement.line)
        return line.split("#")[1].split("\n")[0].strip()

    (statement,) = [
        s
        for block in index.statements.values()
        for s in block
        if not index.blocks_of(s.node) and f"# {read}\n" in module.code_for_node(s.line)
    ]
    assert {label(s) for s in reaching_bindings(index, statement, "checkpoint")} == expected


@pytest.mark.parametrize(
    "qualified, expected",
    [
        ("example.train", True),  # its own function
        ("example.Net().fit", True),  # a method of its own class
        ("example.utils.fix_seed", False),  # the package `example/` its notebook imports from
        ("other.train", False),
    ],
)
def test_a_module_defines_only_its_own_names(qualified, expected):
    source = "from example.utils import fix_seed\n\ndef train():\n    pass\n\nclass Net:\n    def fit(self):\n        pass\n"
    _, index = index_of(source, "example")
    assert index.defines(qualified) is expected
