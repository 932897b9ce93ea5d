"""Seeding done in other modules of the project counts exactly like seeding done inline."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import run_cli
from test_rules_workers import NOISY

from seedlint.analysis import catalog, modules
from seedlint.analysis.modules import ModuleFinder, module_name
from seedlint.analysis.project import ProjectIndex

UTILS = """\
    import torch


    def set_seed(seed):
        torch.manual_seed(seed)
    """


def check(root, *paths: str, extra: tuple[str, ...] = ()) -> list[tuple[str, str, int]]:
    """(file, code, row) of every finding of `seedlint check` run in `root`."""
    result = run_cli(
        "check", "--isolated", "--output-format", "json", *extra, *(paths or (".",)), cwd=root
    )
    assert result.returncode in (0, 1), result.stderr.decode()
    return sorted(
        (item["filename"].rsplit("/", 1)[-1], item["code"], item["location"]["row"])
        for item in json.loads(result.stdout)
    )


class TestThrownAwayInitialisationAcrossModules:
    MODEL = """\
        import torch.nn as nn


        class GPT(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
        """

    def test_weights_loaded_by_a_helper_of_another_module_are_not_drawn_before_the_seed(
        self, write, tmp_path
    ):
        write("model.py", self.MODEL)
        write(
            "ckpt.py",
            """\
            import torch


            def load_checkpoint(fabric, model, path, strict=True):
                state = torch.load(path)
                model.load_state_dict(state, strict=strict)
            """,
        )
        write(
            "generate.py",
            """\
            import torch
            from ckpt import load_checkpoint
            from model import GPT

            model = GPT()
            load_checkpoint(None, model, "ckpt.pt")
            torch.manual_seed(1234)
            print(torch.multinomial(torch.ones(4), 1))
            """,
        )
        assert check(tmp_path) == []

    def test_a_helper_of_another_module_that_does_not_load_every_weight_leaves_the_build_flagged(
        self, write, tmp_path
    ):
        write("model.py", self.MODEL)
        write(
            "ckpt.py",
            """\
            import torch


            def load_head(model, path):
                model.fc.load_state_dict(torch.load(path))
            """,
        )
        write(
            "generate.py",
            """\
            import torch
            from ckpt import load_head
            from model import GPT

            model = GPT()
            load_head(model, "head.pt")
            torch.manual_seed(1234)
            """,
        )
        assert check(tmp_path) == [("generate.py", "SL104", 5)]


def test_a_trainer_subclass_of_another_module_seeds_where_it_is_built(write, tmp_path):
    write(
        "trainers.py",
        "from transformers import Trainer\n\n\nclass WeightedTrainer(Trainer):\n"
        "    def compute_loss(self, model, inputs):\n        return model(**inputs).loss\n",
    )
    write(
        "train.py",
        """\
        import torch
        from trainers import WeightedTrainer

        head = torch.nn.Linear(4, 2)
        trainer = WeightedTrainer(model=head, args=None)
        """,
    )
    assert check(tmp_path) == [("train.py", "SL104", 4)]


class TestHelpersInOtherModules:
    @pytest.mark.parametrize(
        "importing",
        [
            "from utils import set_seed\nset_seed(0)",
            "import utils\nutils.set_seed(0)",
            "from utils import set_seed as seed_all_the_things\nseed_all_the_things(0)",
        ],
        ids=["from-import", "module-import", "aliased"],
    )
    def test_a_helper_in_a_sibling_module_seeds_where_it_is_called(
        self, write, tmp_path, importing
    ):
        write("utils.py", UTILS)
        write(
            "train.py",
            f"import torch\nmodel = torch.nn.Linear(2, 2)\n{importing}\nx = torch.randn(3)\n",
        )
        assert check(tmp_path) == [("train.py", "SL104", 2)]

    def test_linting_only_the_script_still_reads_the_helper(self, write, tmp_path):
        write("utils.py", UTILS)
        write(
            "train.py",
            "import numpy as np\nfrom utils import set_seed\nset_seed(0)\nx = np.random.rand(2)\n",
        )
        assert check(tmp_path, "train.py") == [("train.py", "SL105", 4)]

    def test_relative_import_and_re_export_through_a_package(self, write, tmp_path):
        write("proj/__init__.py", "from .misc import fix_random_seeds\n")
        write(
            "proj/misc.py",
            """\
            import torch


            def fix_random_seeds(seed=31):
                torch.cuda.manual_seed_all(seed)
            """,
        )
        write(
            "proj/train.py",
            """\
            from . import fix_random_seeds


            def main(seed):
                fix_random_seeds(seed)


            if __name__ == "__main__":
                main(0)
            """,
        )
        found = check(tmp_path)
        assert (
            "train.py",
            "SL101",
            5,
        ) in found  # the wrapper seeds CUDA only: seen through the package
        assert ("misc.py", "SL101", 5) in found

    def test_a_wrapper_of_a_wrapper_across_three_modules(self, write, tmp_path):
        write("low.py", "import torch\n\n\ndef seed_torch(value):\n    torch.manual_seed(value)\n")
        write("mid.py", "from low import seed_torch\n\n\ndef init_seeds(s):\n    seed_torch(s)\n")
        write(
            "train.py",
            """\
            import time
            import torch
            from mid import init_seeds
            model = torch.nn.Linear(2, 2)
            init_seeds(int(time.time()))
            """,
        )
        # `init_seeds(` is not a seeding spelling: the project index opens the file's gate.
        assert check(tmp_path, "train.py") == [("train.py", "SL106", 5)]

    @pytest.mark.parametrize(
        "use",
        ["trainer = Trainer(0)", "Trainer.seed_all(0)", "t = Seeder()\nt.seed_all(0)"],
        ids=["constructor", "static-style", "method-on-instance"],
    )
    def test_methods_and_constructors_of_classes_in_other_modules(self, write, tmp_path, use):
        write(
            "engine.py",
            """\
            import torch


            class Seeder:
                def seed_all(self, seed):
                    torch.manual_seed(seed)


            class Trainer(Seeder):
                def __init__(self, seed):
                    self.seed_all(seed)
            """,
        )
        write(
            "train.py",
            f"import numpy as np\nfrom engine import Trainer, Seeder\n{use}\nx = np.random.rand(2)\n",
        )
        assert [item[:2] for item in check(tmp_path, "train.py")] == [("train.py", "SL105")]

    def test_seed_functions_in_config_override_what_is_inferred(self, write, tmp_path):
        write("utils.py", UTILS)  # seeds torch only...
        write(
            "pyproject.toml",
            '[tool.seedlint]\nseed-functions = {"utils.set_seed" = ["torch", "numpy"]}\n',
        )
        write(
            "train.py",
            "import numpy as np\nfrom utils import set_seed\nset_seed(0)\nx = np.random.rand(2)\n",
        )
        result = run_cli("check", "--output-format", "json", "train.py", cwd=tmp_path)
        assert json.loads(result.stdout) == []  # ...but the project says it seeds numpy too

    def test_the_fix_uses_the_call_sites_seed_expression(self, write, tmp_path):
        write("utils.py", UTILS)
        train = write(
            "train.py",
            "import random\nfrom utils import set_seed\nset_seed(args.seed)\nrandom.random()\n",
        )
        result = run_cli("check", "--isolated", "--fix", "train.py", cwd=tmp_path)
        assert result.returncode == 0, result.stdout
        assert "set_seed(args.seed)\nrandom.seed(args.seed)\n" in train.read_text()


class TestDrawsInOtherModules:
    MODEL = """\
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)


        def load_config(path):
            return {"path": path}
        """

    @pytest.mark.parametrize("layout", ["module", "package"])
    def test_a_model_built_from_another_module_before_the_seed_is_flagged(
        self, write, tmp_path, layout
    ):
        if layout == "module":
            write("model.py", self.MODEL)
            importing = "from model import Net"
        else:
            write("pkg/model.py", self.MODEL)
            write("pkg/__init__.py", "from .model import Net, load_config\n")
            importing = "from pkg import Net"
        write("train.py", f"import torch\n{importing}\n\nmodel = Net()\ntorch.manual_seed(0)\n")
        assert check(tmp_path, "train.py") == [("train.py", "SL104", 4)]
        result = run_cli("check", "--isolated", "train.py", cwd=tmp_path)
        assert "`Net()` draws from the torch CPU generator (in `" in result.stdout.decode()

    def test_after_the_seed_or_a_function_that_does_not_draw_is_not_flagged(self, write, tmp_path):
        write("model.py", self.MODEL)
        write(
            "train.py",
            "import torch\nfrom model import Net, load_config\n\n"
            "config = load_config('x')\ntorch.manual_seed(0)\nmodel = Net()\n",
        )
        assert check(tmp_path, "train.py") == []

    def test_the_fix_moves_the_seed_above_the_cross_module_draw(self, write, tmp_path):
        write("model.py", self.MODEL)
        train = write(
            "train.py",
            "import torch\nfrom model import Net\n\nmodel = Net()\ntorch.manual_seed(0)\n",
        )
        run_cli("check", "--isolated", "--fix", "--unsafe-fixes", "train.py", cwd=tmp_path)
        assert (
            train.read_text()
            == "import torch\nfrom model import Net\n\ntorch.manual_seed(0)\nmodel = Net()\n"
        )


class TestLookAlikes:
    def test_a_helper_that_does_not_seed_is_not_seeding(self, write, tmp_path):
        write(
            "utils.py",
            "import logging\n\n\ndef set_seed(seed):\n    logging.info('seed %s', seed)\n",
        )
        write(
            "train.py",
            "import torch\nmodel = torch.nn.Linear(2, 2)\nfrom utils import set_seed\nset_seed(0)\n",
        )
        assert check(tmp_path) == []

    def test_an_unknown_module_is_not_guessed(self, write, tmp_path):
        write(
            "train.py",
            "import torch\nmodel = torch.nn.Linear(2, 2)\nfrom elsewhere import set_seed\nset_seed(0)\n",
        )
        assert check(tmp_path) == []

    def test_import_cycles_and_recursion_terminate(self, write, tmp_path):
        write("a.py", "from b import g\n\n\ndef f(seed):\n    g(seed)\n")
        write(
            "b.py",
            "import torch\nfrom a import f\n\n\ndef g(seed):\n    f(seed)\n    torch.manual_seed(seed)\n",
        )
        write("train.py", "import numpy as np\nfrom a import f\nf(1)\nnp.random.rand()\n")
        assert check(tmp_path, "train.py") == [("train.py", "SL105", 4)]

    def test_a_helper_module_that_does_not_parse_is_ignored(self, write, tmp_path):
        write("utils.py", "def set_seed(seed)\n    pass  # seed\n")
        write(
            "train.py",
            "import torch\nmodel = torch.nn.Linear(2, 2)\nfrom utils import set_seed\nset_seed(0)\n",
        )
        assert check(tmp_path, "train.py") == []


class TestProjectIndex:
    def test_summary_names_generators_and_seed_parameter(self, write, tmp_path):
        write("pkg/__init__.py", "")
        write(
            "pkg/seeding.py",
            """\
            import random
            import numpy as np
            import torch


            def everything(cfg, seed=0):
                random.seed(seed)
                np.random.seed(seed)
                torch.manual_seed(seed)
            """,
        )
        summary = ProjectIndex([tmp_path]).summary("pkg.seeding.everything")
        assert summary.seeds == catalog.EVERYTHING
        assert summary.seed_parameter == ("seed", 1)

    def test_module_names_follow_packages(self, write):
        assert (
            module_name(write("pkg/sub/mod.py", "")) == "mod"
        )  # no __init__.py: a script directory
        write("pkg/__init__.py", "")
        write("pkg/sub/__init__.py", "")
        assert module_name(write("pkg/sub/mod.py", "")) == "pkg.sub.mod"
        assert module_name(write("pkg/sub/__init__.py", "")) == "pkg.sub"

    def test_files_that_can_neither_seed_nor_draw_are_not_parsed(self, write, tmp_path):
        write("config.py", "import json\n\n\ndef load(path):\n    return json.load(open(path))\n")
        project = ProjectIndex([tmp_path])
        assert project.module("config") is None
        assert project.summary("config.load") is None

    def test_a_module_that_draws_is_summarised_but_cannot_open_the_seeding_rules(
        self, write, tmp_path
    ):
        write("models.py", "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n")
        project = ProjectIndex([tmp_path])
        summary = project.summary("models.build")
        assert (summary.seeds, summary.draws) == (frozenset(), frozenset({catalog.TORCH_CPU}))
        assert project.seeding_gates([tmp_path / "models.py"]) == set()

    def test_dropped_trees_keep_their_summaries_and_are_parsed_again_when_asked(
        self, write, tmp_path
    ):
        utils = write("utils.py", "import torch\n\n\ndef set_seed(s):\n    torch.manual_seed(s)\n")
        project = ProjectIndex([tmp_path])
        summary = project.summary("utils.set_seed")
        assert summary.seeds and project.kept_source() == len(utils.read_text())
        assert project.trim_trees(0) == len(utils.read_text())
        assert project.kept_source() == 0 and project.parsed_files() == []
        assert project.summary("utils.set_seed") is summary  # kept: nothing parsed
        assert project.parsed_files() == []
        assert "utils.set_seed" in project.module("utils").functions
        assert project.parsed_files() == [utils.absolute()]

    def test_the_trees_asked_for_least_recently_are_dropped_first(self, write, tmp_path):
        files = {
            name: write(f"{name}.py", f"import torch\n\n\ndef {name}():\n    torch.rand(1)\n")
            for name in ("a", "b", "c")
        }
        size = len(files["a"].read_text())
        project = ProjectIndex([tmp_path])
        for name in ("a", "b", "c", "a"):  # `a` asked for again: now the most recent
            project.module(name)
        assert project.trim_trees(2 * size) == size  # `b`: the least recent
        assert project.parsed_files() == [files["c"].absolute(), files["a"].absolute()]
        assert project.kept_source() == 2 * size
        assert project.trim_trees(2 * size) == 0

    def test_a_finder_keeps_the_bytes_read_last_and_reads_the_others_again(
        self, write, tmp_path, monkeypatch
    ):
        first, second = write("a.py", "a = 1\n"), write("b.py", "b = 2\n")
        finder = ModuleFinder([tmp_path])
        assert finder.read_bytes(first) == b"a = 1\n"
        first.write_bytes(b"a = 3\n")
        assert finder.read_bytes(first) == b"a = 1\n"  # kept: as this run read it
        monkeypatch.setattr(modules, "_KEPT_BYTES", 8)  # room for one of the two
        assert finder.read_bytes(second) == b"b = 2\n"
        assert finder.read_bytes(first) == b"a = 3\n"  # dropped: read again
        assert finder.read_files() == [first.absolute(), second.absolute()]

    def test_the_files_naming_a_word_are_found_in_one_read_of_each_file(
        self, write, tmp_path, monkeypatch
    ):
        files = {
            "calls": write("calls.py", "from lib import train\n\ntrain(model.generator.x)\n"),
            "longer": write("longer.py", "pretrain(train_loader)\n"),
            "unicode": write("unicode.py", "données = train\n"),
            "notes": write("notes.txt", "train\n"),
        }
        finder = ModuleFinder([tmp_path])
        finder.project_files = list(files.values())
        reads = []
        read_bytes = Path.read_bytes
        monkeypatch.setattr(
            Path, "read_bytes", lambda path: reads.append(str(path)) or read_bytes(path)
        )
        named = {
            name: [Path(path).name for path in finder.files_naming(name)]
            for name in ("train", "données", "train_loader", ".generator.", "generator", "x.y")
        }
        assert named == {
            "train": ["calls.py", "unicode.py"],  # a word, not part of a longer name
            "données": ["unicode.py"],
            "train_loader": ["longer.py"],
            ".generator.": ["calls.py"],  # other text: where it appears
            "generator": ["calls.py"],
            "x.y": [],
        }
        # each Python file read from the disk once for all the names
        python = [str(files[name].absolute()) for name in ("calls", "longer", "unicode")]
        assert sorted(reads) == python

    def test_other_projects_trees_unused_for_a_while_are_dropped(self, write, tmp_path):
        text = "import torch\n\n\ndef f():\n    torch.rand(1)\n"
        mine = write("mine/a.py", text)
        write("other/b.py", text)
        project = ProjectIndex([tmp_path / "mine", tmp_path / "other"])
        project.module("a"), project.module("b")
        root = str(tmp_path / "mine")
        assert project.trim_trees(10**9, 2, root) == 0  # both asked for since
        project.trim_trees(10**9, 2, root)
        project.trim_trees(10**9, 2, root)
        assert project.parsed_files() == [mine.absolute()]  # its own project's is kept

    def test_seeding_questions_do_not_parse_modules_that_can_only_draw(self, write, tmp_path):
        models = write(
            "models.py", "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n"
        )
        project = ProjectIndex([tmp_path])
        with project.seeding_only():
            assert project.summary("models.build") is None
        assert models.absolute() not in project.parsed_files()
        assert project.summary("models.build").draws == frozenset({catalog.TORCH_CPU})
        assert models.absolute() in project.parsed_files()


# Each way of seeding from another module, as (helper files, config, import line, seeding call).
SEEDING_FORMS = {
    "helper": ({"utils.py": UTILS}, "", "from utils import set_seed", "set_seed(SEED)"),
    "method": (
        {
            "engine.py": "import torch\n\n\nclass Seeder:\n    def seed_all(self, seed):\n        torch.manual_seed(seed)\n"
        },
        "",
        "from engine import Seeder",
        "Seeder().seed_all(SEED)",
    ),
    "wrapper-of-wrapper": (
        {
            "low.py": "import torch\n\n\ndef seed_torch(value):\n    torch.manual_seed(value)\n",
            "mid.py": "from low import seed_torch\n\n\ndef init_seeds(s):\n    seed_torch(s)\n",
        },
        "",
        "from mid import init_seeds",
        "init_seeds(SEED)",
    ),
    "star-import": ({"utils.py": UTILS}, "", "from utils import *", "set_seed(SEED)"),
    "star-import-of-a-package-that-star-imports": (  # timm's `from timm.utils import *`
        {
            "tools/__init__.py": "from .other import *\nfrom .random import *\n",
            "tools/other.py": "x = 1\n",
            "tools/random.py": "import torch\n\n\ndef random_seed(seed=42, rank=0):\n    torch.manual_seed(seed + rank)\n",
        },
        "",
        "from math import *\nfrom tools import *\nfrom os.path import *",
        "random_seed(SEED, 0)",
    ),
    "configured": (
        {"mylib.py": "def prepare(value):\n    return value\n"},
        '[tool.seedlint]\nseed-functions = {"mylib.prepare" = ["torch"]}\n',
        "from mylib import prepare",
        "prepare(SEED)",
    ),
}

# For each rule that depends on seeding state: the script around the seeding ({seed} marks it),
# and the codes it must get in train.py.
SCRIPTS = {
    # Without the helper's seeding, these two would be flagged (CUDA-only seeding).
    "SL101": ("{seed}\ntorch.cuda.manual_seed_all(0)\n", []),
    "SL102": (
        "{seed}\ntorch.cuda.manual_seed(0)\nmodel = torch.nn.DataParallel(torch.nn.Linear(2, 2)).cuda()\n",
        [],
    ),
    "SL104": ("model = torch.nn.Linear(2, 2)\n{seed}\n", ["SL104"]),
    "SL105": ("{seed}\nx = np.random.rand(2)\n", ["SL105"]),
    "SL106": ("import time\n{seed_from_clock}\n", ["SL106"]),
    "SL107": ("{seed}\ng = torch.Generator()\n", ["SL107"]),
    "SL108": (
        "import torch.multiprocessing as mp\n\n\ndef worker(rank):\n    return torch.nn.Linear(2, 2)\n\n\n"
        "if __name__ == '__main__':\n    {seed}\n    mp.spawn(worker, nprocs=2)\n",
        ["SL108"],
    ),
    "SL204": (
        "from torch.utils.data import random_split\n{seed}\ntrain, val = random_split(ds, [8, 2])\n",
        [],
    ),
    "SL303": ("{seed}\nx = torch.zeros(3).cuda()\nx.index_add_(0, index, x)\n", ["SL303"]),
}


@pytest.mark.parametrize("form", sorted(SEEDING_FORMS))
@pytest.mark.parametrize("rule", sorted(SCRIPTS))
def test_every_seeding_rule_sees_seeding_done_in_another_module(write, tmp_path, form, rule):
    helpers, config, import_line, call = SEEDING_FORMS[form]
    for name, source in helpers.items():
        write(name, source)
    if config:
        write("pyproject.toml", config)
    script, expected = SCRIPTS[rule]
    body = script.format(
        seed=call.replace("SEED", "0"), seed_from_clock=call.replace("SEED", "int(time.time())")
    )
    write("train.py", f"import numpy as np\nimport torch\n{import_line}\n{body}")
    result = run_cli("check", "--select", rule, "--output-format", "json", "train.py", cwd=tmp_path)
    assert [item["code"] for item in json.loads(result.stdout)] == expected, result.stderr.decode()


@pytest.mark.parametrize(
    "helpers, import_line, seeded",
    [
        # The project's star module lacks it: it comes from somewhere seedlint cannot read, so it is taken to seed.
        (
            {"utils.py": "import torch\n\n\ndef log(x):\n    print(x)\n"},
            "from utils import *",
            True,
        ),
        ({}, "from math import *", False),
        (
            {"utils.py": UTILS, "other.py": "x = 1\n"},
            "from utils import *\nfrom other import *",
            True,
        ),
        (
            {"utils.py": UTILS, "other.py": "def set_seed(seed):\n    pass\n"},
            "from utils import *\nfrom other import *",
            False,
        ),  # the last star import that defines the name wins, as at run time
    ],
    ids=[
        "star-module-without-it",
        "standard-library-star",
        "defined-by-an-earlier-star",
        "redefined-by-a-later-star",
    ],
)
def test_a_star_imported_name_is_what_the_module_that_defines_it_last_defines(
    write, tmp_path, helpers, import_line, seeded
):
    for name, source in helpers.items():
        write(name, source)
    write(
        "train.py",
        f"from torch.utils.data import RandomSampler\n{import_line}\nset_seed(0)\n"
        "print(list(RandomSampler(range(10))))\n",
    )
    codes = [code for _, code, _ in check(tmp_path, "train.py", extra=("--select", "SL204"))]
    assert codes == ([] if seeded else ["SL204"])


def test_star_imports_that_import_each_other_resolve_and_end(write, tmp_path):
    # torch's packages star-import one another; each module's names are read once, a cycle ends.
    write(
        "a.py",
        "from b import *\nfrom c import *\nimport torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n",
    )
    write("b.py", "from a import *\nfrom c import *\n")
    write("c.py", "from b import *\nfrom a import *\n")
    write(
        "train.py",
        f"from torch.utils.data import RandomSampler\nfrom c import *\nset_seed(0)\n{SAMPLED}"
        "x = undefined_name + other_undefined\n",
    )
    assert check(tmp_path, "train.py", extra=("--select", "SL204")) == []


def test_a_cached_run_sees_a_star_imported_module_start_to_define_the_helper(write, tmp_path):
    write("utils.py", UTILS)
    write("other.py", "x = 1\n")
    write(
        "train.py",
        "from torch.utils.data import RandomSampler\nfrom utils import *\nfrom other import *\n"
        "set_seed(0)\nprint(list(RandomSampler(range(10))))\n",
    )
    assert check(tmp_path, "train.py", extra=("--select", "SL204")) == []
    write(
        "other.py", "def set_seed(seed):\n    pass\n"
    )  # now the name comes from here: nothing seeds
    assert check(tmp_path, "train.py", extra=("--select", "SL204")) == [("train.py", "SL204", 5)]


SAMPLED = "print(list(RandomSampler(range(10))))\n"


@pytest.mark.parametrize(
    "import_line, call",
    [
        (
            "from utils.utils import set_random_seed",
            "set_random_seed(1234)",
        ),  # DeepSpeed-Chat, after a sys.path hack
        ("from common import set_seed", "set_seed(args.seed)"),
        ("import helpers", "helpers.seed_everything(0)"),
        ("from tools.env import init_seeds", "init_seeds(0)"),
    ],
)
def test_a_seeding_helper_of_a_module_seedlint_cannot_read_is_taken_to_seed(
    write, tmp_path, import_line, call
):
    write(
        "train.py",
        f"import numpy as np\nimport torch\nfrom torch.utils.data import RandomSampler\n{import_line}\n"
        f"model = torch.nn.Linear(2, 2)\ntorch.manual_seed(0)\n{call}\n{SAMPLED}x = np.random.rand(2)\n"
        f"for epoch in range(3):\n    {call}\n    model(torch.randn(2)).sum().backward()\n",
    )
    # Nothing is reported as unseeded (SL204, SL105); nothing is said of what the helper seeds (SL104, SL110).
    assert [code for _, code, _ in check(tmp_path, "train.py", extra=("--select", "ALL"))] == [
        "SL104"
    ]  # before manual_seed


@pytest.mark.parametrize(
    "helpers, import_line, call",
    [
        (
            {"common.py": "CONFIG = {}\n\n\ndef set_seed(seed):\n    CONFIG['seed'] = seed\n"},
            "from common import set_seed",
            "set_seed(0)",
        ),  # a project helper that only stores the seed
        ({}, "from common import get_seed", "get_seed()"),  # a getter, not a seeding
        ({}, "import gymnasium as gym", "gym.make('CartPole-v1').seed(0)"),  # a method of an object
    ],
)
def test_look_alikes_of_an_unreadable_seeding_helper_seed_nothing(
    write, tmp_path, helpers, import_line, call
):
    for name, source in helpers.items():
        write(name, source)
    write(
        "train.py", f"from torch.utils.data import RandomSampler\n{import_line}\n{call}\n{SAMPLED}"
    )
    assert [code for _, code, _ in check(tmp_path, "train.py", extra=("--select", "SL204"))] == [
        "SL204"
    ]


def test_a_dataset_class_from_another_module_is_judged_where_the_loader_is_built(write, tmp_path):
    # Distilled from the corpus program folder_dataset_buggy: datasets.py holds no seeding at all.
    write("data.py", NOISY)
    write(
        "train.py",
        "from torch.utils.data import DataLoader\nfrom data import Noisy\nloader = DataLoader(Noisy(), num_workers=2)\n",
    )
    assert check(tmp_path, "train.py") == [("train.py", "SL202", 3)]


@pytest.mark.parametrize(
    "text, calls",
    [
        (b"init(0)", True),
        (b"utils.init(0)", True),
        (b"x = [init(s) for s in seeds]", True),
        (b"super().__init__()", False),  # `init(` is the tail of another name
        (b"reinit(0)", False),
        (b"def setup():\n    pass\n", False),
    ],
)
def test_a_seeding_helper_gate_opens_files_that_call_it_by_name(text, calls):
    from seedlint.gates import calls_a_gate

    assert calls_a_gate(text, [b"init("]) is calls


MAIN_WITH_ENGINE = """\
    import torch
    from torch.utils.data import DataLoader, DistributedSampler
    from engine import train_one_epoch


    def main(args, dataset, model):
        sampler = DistributedSampler(dataset, shuffle=True)
        loader = DataLoader(dataset, sampler=sampler, batch_size=64)
        for epoch in range(args.epochs):
            {set_epoch}
            train_one_epoch(model, loader, epoch)
    """


@pytest.mark.parametrize(
    "loop",
    [
        "for step, (x, y) in enumerate(metric_logger.log_every(data_loader, 10, header)):",
        "for x, y in data_loader:",
        "for x, y in tqdm(data_loader, desc='train'):",
    ],
)
def test_a_loader_iterated_by_another_module_s_epoch_function_needs_set_epoch(
    write, tmp_path, loop
):
    # MAE/DeiT-style: main.py builds the loader, engine.py's train_one_epoch iterates it.
    write(
        "engine.py",
        f"def train_one_epoch(model, data_loader, epoch):\n    {loop}\n        model(x)\n",
    )
    write("main.py", MAIN_WITH_ENGINE.format(set_epoch="pass"))
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == [("main.py", "SL201", 9)]


@pytest.mark.parametrize(
    "set_epoch, engine",
    [
        (
            "loader.sampler.set_epoch(epoch)",
            "def train_one_epoch(model, data_loader, epoch):\n"
            "    for x in data_loader:\n        model(x)\n",
        ),
        (
            "pass",
            "def train_one_epoch(model, data_loader, epoch):\n    data_loader.sampler.set_epoch(epoch)\n"
            "    for x in data_loader:\n        model(x)\n",
        ),
        (
            "pass",
            "def train_one_epoch(model, data_loader, epoch):\n    for x in range(len(data_loader)):\n        model(x)\n",
        ),
        (
            "pass",
            "def train_one_epoch(model, data_loader, epoch):\n    for x in model.parameters():\n        print(data_loader)\n",
        ),
    ],
    ids=[
        "set-epoch-in-the-caller",
        "set-epoch-in-the-epoch-function",
        "only-its-length",
        "another-loop",
    ],
)
def test_look_alikes_of_a_loader_iterated_by_another_module_are_not_flagged(
    write, tmp_path, set_epoch, engine
):
    write("engine.py", engine)
    write("main.py", MAIN_WITH_ENGINE.format(set_epoch=set_epoch))
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == []


TRAINER = """\
    class Trainer{bases}:
        def __init__(self, model, train_loader, epochs):
            self.model = model
            self.train_loader = train_loader
            self.epochs = epochs

        def train_epoch(self):
            for batch in self.train_loader:
                self.model(batch)

        def fit(self):
            for epoch in range(self.epochs):
                {set_epoch}
                self.train_epoch()
    """
MAIN_WITH_TRAINER = """\
    import torch
    from torch.utils.data import DataLoader, DistributedSampler
    from trainer import Trainer

    torch.manual_seed(0)
    sampler = DistributedSampler(dataset, shuffle={shuffle})
    loader = DataLoader(dataset, sampler=sampler, batch_size=64)
    trainer = Trainer(model, loader, 10)
    trainer.{run}()
    """


@pytest.mark.parametrize(
    "trainer, script",
    [
        (TRAINER, MAIN_WITH_TRAINER),
        # the batch loop inside the epoch loop
        (
            TRAINER.replace(
                "        self.train_epoch()",
                "        for x in enumerate(self.train_loader):\n                    self.model(x)",
            ),
            MAIN_WITH_TRAINER,
        ),
        # built and run in one expression
        (
            TRAINER,
            MAIN_WITH_TRAINER.replace(
                "trainer = Trainer(model, loader, 10)\n    trainer.{run}()",
                "Trainer(model, loader, 10).{run}()",
            ),
        ),
    ],
    ids=["through-a-method", "nested-loops", "chained"],
)
def test_a_loader_kept_by_a_trainer_object_whose_epoch_loop_never_sets_the_epoch(
    write, tmp_path, trainer, script
):
    write("trainer.py", trainer.format(bases="", set_epoch="pass"))
    write("main.py", script.format(shuffle="True", run="fit"))
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == [("main.py", "SL201", 8)]


@pytest.mark.parametrize(
    "bases, set_epoch, shuffle, run, extra",
    [
        ("", "self.train_loader.sampler.set_epoch(epoch)", "True", "fit", ""),
        ("", "pass", "False", "fit", ""),
        (
            "",
            "pass",
            "True",
            "train_epoch",
            "",
        ),  # one pass per call: the caller's loop is the epoch loop
        ("(Base)", "pass", "True", "fit", ""),  # a base of another module may set the epoch
        ("", "pass", "True", "fit", "sampler.set_epoch(0)\n"),
    ],
    ids=[
        "set-epoch-in-the-class",
        "no-shuffle",
        "no-epoch-loop-run",
        "base-out-of-view",
        "set-epoch-in-the-script",
    ],
)
def test_look_alikes_of_a_loader_kept_by_a_trainer_object(
    write, tmp_path, bases, set_epoch, shuffle, run, extra
):
    write(
        "trainer.py", "from base import Base\n" + TRAINER.format(bases=bases, set_epoch=set_epoch)
    )
    write("main.py", MAIN_WITH_TRAINER.format(shuffle=shuffle, run=run) + extra)
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == []


def test_a_trainer_object_run_by_calling_it(write, tmp_path):
    write(
        "trainer.py",
        TRAINER.format(bases="", set_epoch="pass").replace("def fit(self):", "def __call__(self):"),
    )
    write(
        "main.py",
        MAIN_WITH_TRAINER.format(shuffle="True", run="fit").replace("trainer.fit()", "trainer()"),
    )
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == [("main.py", "SL201", 8)]


@pytest.mark.parametrize("run", ["fit", "train_epoch"])
def test_a_trainer_whose_hooks_set_the_epoch_is_left_alone(write, tmp_path, run):
    # core-pytorch-utils, mmcv: a hook class of another module calls `trainer.data_loader.sampler.set_epoch`.
    write(
        "hooks.py",
        "class DistributedHook:\n    def before_epoch(self):\n"
        "        self.trainer.train_loader.sampler.set_epoch(self.trainer.epoch)\n",
    )
    write(
        "trainer.py",
        "from hooks import DistributedHook\n" + TRAINER.format(bases="", set_epoch="pass"),
    )
    script = MAIN_WITH_TRAINER.format(shuffle="True", run="fit")
    if run == "train_epoch":
        script = script.replace(
            "trainer.fit()", "for epoch in range(10):\n        trainer.train_epoch()"
        )
    write("main.py", script)
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == []


@pytest.mark.parametrize(
    "loop, flagged",
    [
        ("for epoch in range(10):\n        trainer.train_epoch()\n", True),
        (
            "for epoch in range(10):\n        sampler.set_epoch(epoch)\n        trainer.train_epoch()\n",
            False,
        ),
        (
            "for epoch in range(10):\n        trainer.evaluate()\n",
            False,
        ),  # iterates another loader it keeps
    ],
    ids=["epoch-loop-here", "set-epoch-here", "another-loader"],
)
def test_an_epoch_loop_calling_a_method_that_iterates_the_kept_loader(
    write, tmp_path, loop, flagged
):
    trainer = TRAINER.format(bases="", set_epoch="pass").replace(
        "        def fit(self):",
        "        def evaluate(self):\n            for batch in self.model.val_loader:\n"
        "                self.model(batch)\n\n        def fit(self):",
    )
    write("trainer.py", trainer)
    write(
        "main.py",
        MAIN_WITH_TRAINER.format(shuffle="True", run="fit").replace(
            "    trainer.fit()\n", "    " + loop
        ),
    )
    assert check(tmp_path, "main.py", extra=("--select", "SL201")) == (
        [("main.py", "SL201", 9)] if flagged else []
    )
    if flagged:
        result = run_cli(
            "check", "--isolated", "--select", "SL201", "--fix", "main.py", cwd=tmp_path
        )
        assert result.returncode == 0, result.stdout.decode()
        assert (
            "    sampler.set_epoch(epoch)\n    trainer.train_epoch()"
            in (tmp_path / "main.py").read_text()
        )


RL_SCRIPT = """\
    import gymnasium as gym
    import torch
    import rl_utils

    torch.manual_seed(0)
    env = gym.make("CartPole-v1")
    returns = rl_utils.train_on_policy_agent(env, agent, 100)
    """
EPISODE = (
    "def run_episode(env, agent):\n    state, info = env.reset()\n    return agent.act(state)\n"
)


@pytest.mark.parametrize(
    "helpers",
    [
        # the Hands-on-RL shape: the training loop lives in rl_utils.py and resets the environment it is given
        "def train_on_policy_agent(env, agent, episodes):\n    for _ in range(episodes):\n        state, info = env.reset()\n",
        # through a function of that module
        f"{EPISODE}\ndef train_on_policy_agent(env, agent, episodes):\n    return [run_episode(env, agent) for _ in range(episodes)]\n",
        # wrapped by the library on the way
        "import gymnasium as gym\ndef train_on_policy_agent(env, agent, episodes):\n"
        "    env = gym.wrappers.RecordEpisodeStatistics(env)\n    env.reset()\n",
    ],
    ids=["resets-it", "through-a-function-of-its-module", "through-a-library-wrapper"],
)
def test_an_environment_another_module_resets_without_a_seed_is_flagged_where_it_is_handed(
    write, tmp_path, helpers
):
    write("rl_utils.py", helpers)
    write("train.py", RL_SCRIPT)
    assert check(tmp_path, "train.py", extra=("--select", "SL111")) == [("train.py", "SL111", 7)]


def test_an_environment_kept_by_an_object_of_another_module_is_flagged_where_it_is_handed(
    write, tmp_path
):
    # Distilled from cart-pole-rl: src/dq_learner.py keeps the environment and resets it in `train()`.
    write(
        "rl_utils.py",
        "class DQLearner:\n    def __init__(self, env):\n        self.env = env\n\n"
        "    def train(self):\n        state, info = self.env.reset()\n",
    )
    write(
        "train.py",
        RL_SCRIPT.replace(
            "returns = rl_utils.train_on_policy_agent(env, agent, 100)",
            "learner = rl_utils.DQLearner(env)\n    learner.train()",
        ),
    )
    assert check(tmp_path, "train.py", extra=("--select", "SL111")) == [("train.py", "SL111", 7)]


@pytest.mark.parametrize(
    "helpers, script",
    [
        (
            "def train_on_policy_agent(env, agent, episodes, seed=0):\n    env.reset(seed=seed)\n",
            RL_SCRIPT,
        ),
        (
            "def train_on_policy_agent(env, agent, episodes):\n    env.seed(0)\n    env.reset()\n",
            RL_SCRIPT,
        ),
        (
            "from runner import run\ndef train_on_policy_agent(env, agent, episodes):\n    run(env)\n    env.reset()\n",
            RL_SCRIPT,
        ),
        (
            f"{EPISODE}\ndef train_on_policy_agent(env, agent, episodes):\n    env.action_space.seed(1)\n    run_episode(env, agent)\n",
            RL_SCRIPT,
        ),
        ("def train_on_policy_agent(env, agent, episodes):\n    agent.reset()\n", RL_SCRIPT),
        (
            "def train_on_policy_agent(env, agent, episodes):\n    env.reset()\n",
            RL_SCRIPT.replace("returns =", "env.reset(seed=0)\n    returns ="),
        ),
        (
            "def train_on_policy_agent(env, agent, episodes):\n    env.reset()\n",
            RL_SCRIPT.replace("torch.manual_seed(0)", ""),
        ),
    ],
    ids=[
        "helper-seeds-the-reset",
        "helper-seeds-the-env",
        "handed-to-an-unread-module",
        "seeds-something",
        "resets-something-else",
        "seeded-before-handing-it-on",
        "script-seeds-nothing",
    ],
)
def test_look_alikes_of_an_environment_another_module_resets_are_not_flagged(
    write, tmp_path, helpers, script
):
    write("rl_utils.py", helpers)
    write("train.py", script)
    assert check(tmp_path, "train.py", extra=("--select", "SL111")) == []


WORKER_SEEDS = """\
    import random

    import numpy as np
    import torch


    def constant_init(worker_id):
        np.random.seed(2023)


    def seed_worker(worker_id):
        worker_seed = torch.initial_seed() % 2**32
        np.random.seed(worker_seed)
        random.seed(worker_seed)


    def offset_init(worker_id):
        np.random.seed(np.random.get_state()[1][0] + worker_id)
    """


@pytest.mark.parametrize(
    "import_line, argument",
    [
        ("from helpers.seeding import constant_init", "constant_init"),
        ("from helpers import seeding", "seeding.constant_init"),
        (
            "from functools import partial\nfrom helpers.seeding import constant_init",
            "partial(constant_init)",
        ),
    ],
)
def test_a_constant_worker_init_fn_of_another_module_is_flagged_at_the_argument(
    write, tmp_path, import_line, argument
):
    write("helpers/__init__.py", "")
    write("helpers/seeding.py", WORKER_SEEDS)
    write(
        "train.py",
        f"from torch.utils.data import DataLoader\n{import_line}\n"
        f"loader = DataLoader(ds, num_workers=2, worker_init_fn={argument})\n",
    )
    result = run_cli(
        "check",
        "--isolated",
        "--select",
        "SL203",
        "--output-format",
        "json",
        "train.py",
        cwd=tmp_path,
    )
    (item,) = json.loads(result.stdout)
    assert item["location"]["row"] == 2 + import_line.count("\n") + 1
    assert (
        "`np.random.seed` in the `worker_init_fn` `constant_init` (line 8 of `helpers.seeding`)"
        in item["message"]
    )


@pytest.mark.parametrize("argument", ["seed_worker", "offset_init", "elsewhere.constant_init"])
def test_worker_init_fns_of_other_modules_that_seed_per_worker_or_are_unread_are_not_flagged(
    write, tmp_path, argument
):
    write("helpers/__init__.py", "")
    write("helpers/seeding.py", WORKER_SEEDS)
    write(
        "train.py",
        "from torch.utils.data import DataLoader\nfrom helpers.seeding import seed_worker, offset_init\n"
        "import elsewhere\n"
        f"loader = DataLoader(ds, num_workers=2, worker_init_fn={argument})\n",
    )
    assert check(tmp_path, "train.py", extra=("--select", "SL203")) == []


def test_a_project_checked_from_elsewhere_finds_helpers_in_its_folders_without_init(
    write, tmp_path
):
    # `helpers/` has no `__init__.py` (a namespace package): scripts import from it when run from the
    # project's root, as `seedlint check .` from there sees it; `seedlint check proj` from its parent does too.
    write(
        "proj/helpers/setup.py",
        "import torch\n\n\ndef prepare(seed):\n    torch.manual_seed(seed)\n",
    )
    write(
        "proj/tools/train.py",
        "import torch\nfrom helpers.setup import prepare\nx = torch.randn(3)\nprepare(0)\n",
    )
    assert check(tmp_path / "proj") == [("train.py", "SL104", 3)]
    assert check(tmp_path, "proj") == [("train.py", "SL104", 3)]


def test_a_package_given_to_check_is_not_an_import_root(write, tmp_path):
    # Inside `pkg`, `import setup` is the top-level module `setup`, not `pkg/setup.py`.
    write("pkg/__init__.py", "")
    write("pkg/setup.py", "import torch\n\n\ndef prepare(seed):\n    torch.manual_seed(seed)\n")
    write(
        "pkg/train.py", "import torch\nfrom setup import prepare\nx = torch.randn(3)\nprepare(0)\n"
    )
    assert check(tmp_path, "pkg") == []


class TestScriptFolders:
    """Each script's bare import finds the module beside it: its folder is first on `sys.path`."""

    PARTIAL = "import random\n\n\ndef set_seed(seed):\n    random.seed(seed)\n"
    TRAIN = """\
        import torch
        from utils import set_seed

        set_seed(0)
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in torch.ones(3, 4):
            model(x).sum().backward()
            optimizer.step()
        """

    def folders(self, write, first: str, second: str):
        write("a/utils.py", first)
        write("b/utils.py", second)
        return write("a/train.py", self.TRAIN), write("b/train.py", self.TRAIN)

    def test_a_namesake_in_another_folder_gets_its_own_tagged_name(self, write, tmp_path):
        scripts = self.folders(write, UTILS, self.PARTIAL)
        finder = ModuleFinder.for_files(scripts)
        first, second = (str(tmp_path / folder) for folder in "ab")
        assert finder.localise("utils", first) == "utils"
        tagged = finder.localise("utils", second)
        assert tagged.endswith(".utils") and tagged != "utils"
        assert finder.resolution(tagged)[0] == str(tmp_path / "b" / "utils.py")
        assert finder.module_name(tmp_path / "b" / "utils.py") == tagged
        assert finder.module_name(tmp_path / "a" / "utils.py") == "utils"
        assert modules.shown_name(f"{tagged}.set_seed") == "utils.set_seed"
        assert modules.shown_name("my-repo+v2.Learner.fit") == "Learner.fit"
        # a name no other folder shadows keeps its name; a tag of no root finds nothing
        assert finder.localise("torch", second) == "torch"
        assert finder.resolution("__root_000000000000__.utils") is None

    @pytest.mark.parametrize("partial_first", [True, False])
    def test_each_script_is_seeded_by_its_own_folders_helper(self, write, tmp_path, partial_first):
        first, second = (self.PARTIAL, UTILS) if partial_first else (UTILS, self.PARTIAL)
        self.folders(write, first, second)
        flagged = "a" if partial_first else "b"
        expected = [("train.py", "SL105", 5)]
        assert check(tmp_path, extra=("--no-cache",)) == expected
        assert check(tmp_path) == expected  # the cache's, the same
        assert check(tmp_path) == expected
        # one file from the root finds the same module as the run over the tree
        assert check(tmp_path, f"{flagged}/train.py") == expected
        assert check(tmp_path, f"{'ab'[partial_first]}/train.py") == []

    def test_a_script_in_a_package_folder_imports_the_module_beside_it(self, write, tmp_path):
        # `python pkg/main.py` puts `pkg/` first in `sys.path`; a package module without a
        # `__main__` block imports as its import root does
        write("lib/utils.py", UTILS)
        write("pkg/__init__.py", "")
        write("pkg/utils.py", self.PARTIAL)
        script = write(
            "pkg/main.py", textwrap.dedent(self.TRAIN) + "if __name__ == '__main__':\n    pass\n"
        )
        module = write("pkg/helper.py", "from utils import set_seed\n")
        finder = ModuleFinder.for_files([script, module, tmp_path / "lib" / "utils.py"])
        imported = finder.imports_of(script, script.read_bytes())
        (own,) = [name for name in imported if name.endswith(".utils")]
        assert "utils" not in imported and own.startswith("__root_")
        assert finder.resolution(own)[0] == str(tmp_path / "pkg" / "utils.py")
        assert "utils" in finder.imports_of(module, module.read_bytes())
        assert check(tmp_path, extra=("--no-cache",)) == [("main.py", "SL105", 5)]
        assert check(tmp_path) == [("main.py", "SL105", 5)]  # the cache's, the same


class TestImportsThatFail:
    """A file whose top-level import of a project module asks for a name the module never spells
    stops there: none of its code runs, so it has no findings."""

    TRAIN = """\
        import torch
        {imports}

        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            model(torch.randn(4)).sum().backward()
            optimizer.step()
        """

    @pytest.mark.parametrize(
        "imports, module, flagged",
        [
            ("from helpers import renamed", "def kept():\n    pass\n", False),
            ("from helpers import kept", "def kept():\n    pass\n", True),
            # names made at run time, a path the script adds, a submodule of a package
            ("from helpers import renamed", "from extras import *\n", True),
            ("from helpers import renamed", "def __getattr__(name):\n    return name\n", True),
            (
                "import sys\nsys.path.insert(0, 'lib')\nfrom helpers import renamed",
                "def kept():\n    pass\n",
                True,
            ),
            ("from helpers import renamed  # renamed, below", "# renamed\n", False),
        ],
    )
    def test_a_stale_import_silences_the_file(self, write, tmp_path, imports, module, flagged):
        write("helpers.py", module)
        write("extras.py", "renamed = 1\n")
        write("train.py", self.TRAIN.replace("{imports}", imports.replace("\n", "\n        ")))
        assert bool(check(tmp_path, "train.py")) == flagged

    def test_a_submodule_of_a_package_is_found(self, write, tmp_path):
        write("pkg/__init__.py", "")
        write("pkg/layers.py", "X = 1\n")
        write("train.py", self.TRAIN.replace("{imports}", "from pkg import layers"))
        assert check(tmp_path, "train.py") == [("train.py", "SL112", 7)]


@pytest.mark.parametrize(
    "draw, flagged",
    [
        ("seed = seed if seed is not None else np.random.randint(0, 1000000)", False),
        ("noise = np.random.randn(size)", True),
    ],
)
def test_a_seed_a_helper_picks_for_its_own_generator_is_not_a_draw_of_its_callers(
    write, tmp_path, draw, flagged
):
    """`create_shared(size, seed)` picks a seed for the table's own generator when none is given:
    its callers draw nothing from NumPy through it; a helper drawing data does."""
    write(
        "noisetable.py",
        f"""\
        import numpy as np


        def create_shared(size, seed=None):
            {draw}
            return np.random.default_rng(seed).standard_normal(size)
        """,
    )
    write(
        "train.py",
        """\
        import torch
        from noisetable import create_shared

        torch.manual_seed(0)
        table = create_shared(100, seed=None)
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            model(torch.randn(4) + float(table[step])).sum().backward()
            optimizer.step()
        """,
    )
    expected = [("train.py", "SL105", 5)] if flagged else []
    assert check(tmp_path, "train.py", extra=("--select", "SL105")) == expected


@pytest.mark.parametrize("call, flagged", [("set_random_seed(cfg['seed'])", False), ("pass", True)])
def test_a_package_init_calling_its_submodules_seeding_helper_seeds(write, tmp_path, call, flagged):
    """`lib/__init__.py`'s `init(cfg)` runs `lib.utils.set_random_seed`: a call into a submodule
    of the package, not a function of `lib` itself."""
    write("lib/utils.py", UTILS.replace("set_seed", "set_random_seed"))
    write(
        "lib/__init__.py",
        f"from lib.utils import set_random_seed\n\n\ndef init(cfg):\n    {call}\n",
    )
    write(
        "train.py",
        """\
        import torch
        from lib import init

        init({"seed": 0})
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            model(torch.randn(4)).sum().backward()
            optimizer.step()
        """,
    )
    found = check(tmp_path, "train.py", extra=("--select", "SL112"))
    assert found == ([("train.py", "SL112", 8)] if flagged else [])
