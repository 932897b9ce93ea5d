"""Behaviour of the ordering rules SL205 (unsorted file listings) and SL206 (set iteration order).

Every source below starts on row 1 (the `\\` after the opening quotes); columns are 1-based.
"""

from __future__ import annotations

import io
import tokenize

import libcst
import pytest
from conftest import codes_of, lint

from seedlint.diagnostics import Applicability
from seedlint.selection import default_codes


def findings(source: str, codes, **kwargs) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding."""
    return [
        (d.code, d.start.row, d.start.column) for d in lint(source, codes, **kwargs).diagnostics
    ]


def fixed(source: str, codes, fix: str = "safe") -> str:
    return lint(source, codes, fix=fix).source.text


def comments(text: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT]


# ============================================================================ SL205
DATASET = """\
import os
from torch.utils.data import Dataset


class Files(Dataset):
    def __init__(self, root):
        {line}
"""


def in_dataset(line: str) -> str:
    return DATASET.replace("{line}", line)


class TestSL205UnsortedFileListing:
    def test_enabled_by_default(self):
        assert "SL205" in default_codes()
        assert codes_of(in_dataset("self.files = os.listdir(root)")) == ["SL205"]

    @pytest.mark.parametrize(
        "line, column",
        [
            ("self.files = os.listdir(root)", 22),
            ("self.files = list(os.scandir(root))", 27),
            ("self.first = os.listdir(root)[0]", 22),
            ("self.top = os.listdir(root)[:100]", 20),
            ("self.index = dict(enumerate(os.listdir(root)))", 37),
            (
                "self.paths = [os.path.join(root, f) for f in os.listdir(root) if f.endswith('.png')]",
                54,
            ),
            ("self.files = os.listdir(root) + os.listdir(root + '2')", 22),
        ],
        ids=[
            "attribute",
            "list-scandir",
            "index",
            "slice",
            "enumerate",
            "comprehension",
            "concatenation",
        ],
    )
    def test_listing_stored_in_order_in_a_dataset_is_flagged(self, line, column):
        assert findings(in_dataset(line), {"SL205"})[0] == ("SL205", 7, column)

    @pytest.mark.parametrize(
        "source",
        [
            "import glob\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, r):\n        self.files = glob.glob(r + '/*.png')\n",
            "from glob import iglob as ig\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, r):\n        self.files = list(ig(r))\n",
            "from os import listdir\nfrom torch.utils.data import IterableDataset\nclass D(IterableDataset):\n"
            "    def __init__(self, r):\n        self.files = listdir(r)\n",
            "import pathlib\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, r):\n        self.files = list(pathlib.Path(r).rglob('*.jpg'))\n",
            "from pathlib import Path as P\nimport torch.utils.data as tud\nclass D(tud.Dataset):\n"
            "    def __init__(self, r):\n        self.files = list((P(r) / 'img').glob('*.png'))\n",
            "from pathlib import Path\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, r: Path):\n        self.files = list(r.iterdir())\n",
            "from pathlib import Path\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, r):\n        self.root = Path(r).resolve()\n"
            "        self.files = [p for p in self.root.glob('*')]\n",
        ],
        ids=[
            "glob",
            "iglob-alias",
            "from-os-import",
            "pathlib-module",
            "path-alias-divided",
            "annotated-parameter",
            "self-attribute-path",
        ],
    )
    def test_every_listing_form_is_resolved(self, source):
        assert codes_of(source, {"SL205"}) == ["SL205"]

    def test_dataset_through_a_module_local_base_class(self):
        source = """\
        import os
        from torch.utils import data


        class Base(data.Dataset):
            pass


        class Frames(Base):
            def __init__(self, root):
                self.files = os.listdir(root)
        """
        assert findings(source, {"SL205"}) == [("SL205", 11, 22)]

    def test_local_variable_used_in_order_later(self):
        source = in_dataset(
            "files = os.listdir(root)\n        files = [f for f in files if f[0] != '.']\n"
            "        self.files = files"
        )
        assert findings(source, {"SL205"}) == [("SL205", 7, 17)]

    def test_index_in_getitem(self):
        source = """\
        import os
        from torch.utils.data import Dataset


        class Files(Dataset):
            def __getitem__(self, index):
                return os.listdir(self.root)[index]
        """
        assert findings(source, {"SL205"}) == [("SL205", 7, 16)]

    def test_loop_that_appends_in_a_dataset(self):
        source = in_dataset(
            "for entry in os.scandir(root):\n            self.files.append(entry.path)"
        )
        assert findings(source, {"SL205"}) == [("SL205", 7, 22)]

    @pytest.mark.parametrize(
        "after",
        [
            "self.files.sort()",
            "self.files = sorted(self.files)",
        ],
        ids=["sorted-in-place", "sorted-again"],
    )
    def test_a_loop_collecting_into_a_list_sorted_afterwards_is_left_alone(self, after):
        source = in_dataset(
            "self.files = []\n        for name in os.listdir(root):\n"
            f"            self.files.append(name)\n        {after}"
        )
        assert findings(source, {"SL205"}) == []
        unsorted = in_dataset(
            "self.files = []\n        for name in os.listdir(root):\n"
            "            self.files.append(name)\n        count = len(self.files)"
        )
        assert findings(unsorted, {"SL205"}) == [("SL205", 8, 21)]

    def test_iterable_dataset_yielding_in_listing_order(self):
        source = """\
        import glob
        from torch.utils.data import IterableDataset


        class Stream(IterableDataset):
            def __iter__(self):
                for path in glob.iglob("data/*.txt"):
                    yield path
        """
        assert findings(source, {"SL205"}) == [("SL205", 7, 21)]

    @pytest.mark.parametrize(
        "source, row, column",
        [
            (
                "import os\nfrom torch.utils.data import TensorDataset\n\n"
                "def build(root):\n    files = os.listdir(root)\n    return TensorDataset(files)\n",
                5,
                13,
            ),
            (
                "import glob\nfrom torch.utils.data import DataLoader\n\n"
                "def files(root):\n    return glob.glob(root)\n\n"
                "loader = DataLoader(files('x'), batch_size=2)\n",
                5,
                12,
            ),
            (
                "import os\nfrom torch.utils.data import DataLoader\n\n"
                "def samples(root):\n    out = []\n    for name in os.listdir(root):\n        out.append(name)\n"
                "    return out\n\nloader = DataLoader(dataset=samples('x'))\n",
                6,
                17,
            ),
            (
                "import os\nfrom torch.utils.data import DataLoader\n\n"
                "files = os.listdir('data')\nloader = DataLoader(files, batch_size=4)\n",
                4,
                9,
            ),
        ],
        ids=[
            "builder-constructs",
            "helper-passed-to-loader",
            "loop-in-function-passed-to-loader",
            "module-body",
        ],
    )
    def test_dataset_builders_are_flagged(self, source, row, column):
        assert findings(source, {"SL205"}) == [("SL205", row, column)]

    def test_helper_returning_a_listing_is_reported_at_the_listing(self):
        source = """\
        import glob
        from torch.utils.data import Dataset


        def list_images(root):
            return glob.glob(root + "/*.png")


        class Images(Dataset):
            def __init__(self, root):
                self.files = list_images(root)
        """
        assert findings(source, {"SL205"}) == [("SL205", 6, 12)]

    GENERATOR = """\
        import os
        from torch.utils.data import Dataset


        def scandir(path, suffix=None):
            def _scandir(path):
                for entry in os.scandir(path):
                    if entry.is_file() and (suffix is None or entry.name.endswith(suffix)):
                        yield entry.path
                    elif entry.is_dir():
                        yield from _scandir(entry.path)
            return _scandir(path)


        class Pairs(Dataset):
            def __init__(self, root):
                {use}
        """

    WALK = """\
        import os
        from torch.utils.data import Dataset


        class Images(Dataset):
            def __init__(self, root):
                self.files = []
                for dirpath, dirnames, filenames in os.walk(root):
                    {inner}
                        self.files.append(os.path.join(dirpath, name))
                {after}
        """

    def test_os_walk_in_filesystem_order_is_flagged_without_a_fix(self):
        source = self.WALK.format(inner="for name in filenames:", after="pass")
        (diagnostic,) = lint(source, {"SL205"}).diagnostics
        assert (diagnostic.start.row, diagnostic.start.column) == (8, 45)
        assert diagnostic.fix is None and "sorted(filenames)" in diagnostic.help
        comprehension = in_dataset(
            "self.files = [f for _, _, names in os.walk(root) for f in names]"
        )
        assert codes_of(comprehension, {"SL205"}) == ["SL205"]

    @pytest.mark.parametrize(
        "loop, flagged",
        [
            (
                "for d, _, names in tqdm(os.walk(root)):\n            self.files += [os.path.join(d, f) for f in names]",
                True,
            ),
            (
                "for d, _, names in tqdm(os.walk(root)):\n            for f in sorted(names):\n"
                "                self.files.append(f)",
                False,
            ),
            (
                "for d, _, names in os.walk(root):\n            self.files += [os.path.join(d, f) for f in names]\n"
                "        self.files.sort()",
                False,
            ),
        ],
        ids=["progress-bar-and-list-extended", "progress-bar-sorted-names", "extended-then-sorted"],
    )
    def test_os_walk_through_a_progress_bar_or_extending_a_list(self, loop, flagged):
        source = in_dataset(f"self.files = []\n        {loop}").replace(
            "import os\n", "import os\nfrom tqdm import tqdm\n"
        )
        assert codes_of(source, {"SL205"}) == (["SL205"] if flagged else [])

    @pytest.mark.parametrize(
        "inner, after",
        [
            ("for name in sorted(filenames):", "pass"),
            ("filenames.sort()\n                    for name in filenames:", "pass"),
            ("for name in filenames:", "self.files.sort()"),
            ("for name in filenames:", "self.files = sorted(self.files)"),
            (
                "dirnames[:] = [d for d in dirnames if d[0] != '.']\n                    for name in filenames:",
                "self.files.sort()",
            ),  # pruning the walk is not numbering the files
        ],
        ids=[
            "sorted-names",
            "names-sorted-in-place",
            "list-sorted-in-place",
            "list-sorted",
            "pruned-then-sorted",
        ],
    )
    def test_os_walk_with_sorted_names_is_left_alone(self, inner, after):
        assert findings(self.WALK.format(inner=inner, after=after), {"SL205"}) == []

    def test_a_generator_yielding_in_listing_order_is_followed_to_its_callers(self):
        # Distilled from BasicSR's `scandir` (NAFNet and other super-resolution projects): a generator over
        # `os.scandir`, returned by its wrapper, whose entries become the dataset's list of files.
        source = self.GENERATOR.replace("{use}", "self.paths = list(scandir(root, suffix='.png'))")
        assert findings(source, {"SL205"}) == [("SL205", 7, 22)]
        fixed = lint(source, {"SL205"}, fix="safe").source.text
        assert "for entry in sorted(os.scandir(path), key=lambda entry: entry.name):" in fixed

    @pytest.mark.parametrize(
        "use",
        [
            "self.paths = sorted(scandir(root))",
            "self.count = len(list(scandir(root)))",
            "self.names = set(scandir(root))",
            "print(list(scandir(root)))",
        ],
        ids=["sorted", "counted", "a-set", "only-printed"],
    )
    def test_a_generator_whose_order_goes_nowhere_is_not_flagged(self, use):
        assert findings(self.GENERATOR.replace("{use}", use), {"SL205"}) == []

    @pytest.mark.parametrize(
        "line",
        [
            "self.files = sorted(os.listdir(root))",
            "self.files = sorted(os.scandir(root), key=lambda e: e.name)",
            "self.n = len(os.listdir(root))",
            "self.ok = 'a.png' in os.listdir(root)",
            "self.names = set(os.listdir(root))",
            "self.any = any(f.endswith('.txt') for f in os.listdir(root))",
            "self.last = max(os.listdir(root))",
            "self.count = sum(1 for _ in os.scandir(root))",
            "self.kinds = {f.split('.')[-1] for f in os.listdir(root)}",
            "files = os.listdir(root)\n        files.sort()\n        self.files = files",
            "files = os.listdir(root)\n        files = sorted(files)\n        self.files = files",
            "self.files = os.listdir(root)\n        self.files.sort()",
            "files = os.listdir(root)\n        self.n = len(files)",
            "for f in os.listdir(root):\n            print(f)",
            "with os.scandir(root) as it:\n            pass",
            "self.files = sorted(f for f in os.listdir(root) if f.endswith('.png'))",
        ],
        ids=[
            "sorted",
            "sorted-scandir",
            "len",
            "in",
            "set",
            "any",
            "max",
            "count",
            "set-comprehension",
            "sort-method",
            "sorted-rebinding",
            "attribute-sort",
            "local-len",
            "loop-reads",
            "with",
            "sorted-generator",
        ],
    )
    def test_order_free_uses_are_not_flagged(self, line):
        assert codes_of(in_dataset(line), {"SL205"}) == []

    @pytest.mark.parametrize(
        "source",
        [
            # A cleanup script: no dataset anywhere.
            "import os\n\nfor f in os.listdir('tmp'):\n    os.remove(f)\n"
            "files = list(os.listdir('.'))\nfirst = files[0]\n",
            # A function that builds nothing, in a module that defines a dataset.
            "import os\nfrom torch.utils.data import Dataset\n\nclass D(Dataset):\n    pass\n\n"
            "def clean(d):\n    return [f for f in os.listdir(d)][0]\n",
            # `listdir` and `glob` of objects of unknown type.
            "from torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, fs, r):\n        self.b = fs.listdir(r)\n        self.c = list(r.glob('*'))\n",
            # A local class named like torch's, and a module named `os` that is not imported.
            "class Dataset:\n    pass\n\nclass D(Dataset):\n    def __init__(self, os):\n"
            "        self.files = os.listdir('.')\n",
            # `sorted` already applied to a path listing.
            "from pathlib import Path\nfrom torch.utils.data import Dataset\nclass D(Dataset):\n"
            "    def __init__(self, r):\n        self.files = sorted(Path(r).glob('*.png'))\n",
        ],
        ids=[
            "cleanup-script",
            "non-builder-function",
            "other-listdir",
            "not-torch-dataset",
            "sorted-path",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert codes_of(source, {"SL205"}) == []

    @pytest.mark.parametrize(
        "lines",
        [
            "f = []\n        for e in exts:\n            f += glob.glob(os.path.join(root, '*.' + e))\n"
            "        self.files = sorted(x for x in f if os.path.isfile(x))",
            "self.paths = list(Path(root).glob('*.png'))\n        self.paths = sorted(self.paths)",
            "self.paths = list(Path(root).glob('*.png'))\n        self.samples = sorted(self.paths)",
            "names = []\n        names.extend(os.listdir(root))\n        self.names = sorted(names)",
            "self.files = os.listdir(root)\n        self.n = len(self.files)\n        self.has_a = 'a' in self.files",
        ],
        ids=[
            "accumulated-then-sorted-generator",
            "attribute-sorted-later",
            "attribute-only-read-sorted",
            "extended-then-sorted",
            "attribute-only-counted",
        ],
    )
    def test_listings_sorted_later_are_not_flagged(self, lines):
        # Distilled from YOLO-style loaders: `f += glob.glob(..)` per extension, then one sorted(..).
        source = "import glob\nfrom pathlib import Path\n" + in_dataset(lines).replace(
            "(self, root)", "(self, root, exts)"
        )
        assert codes_of(source, {"SL205"}) == []

    @pytest.mark.parametrize(
        "lines, row, column",
        [
            (
                "f = []\n        for e in exts:\n            f += glob.glob(os.path.join(root, '*.' + e))\n"
                "        self.files = f",
                11,
                18,
            ),
            (
                "f = []\n        for e in exts:\n            f += glob.glob(os.path.join(root, '*.' + e))\n"
                "        self.files = [x for x in f if os.path.isfile(x)]",
                11,
                18,
            ),
            (
                "if cond:\n            images = None\n        else:\n            images = list(Path(root).iterdir())\n"
                "        self.images = images",
                12,
                27,
            ),
            (
                "if split == 'none':\n            self.class_root = None\n        else:\n"
                "            self.class_root = Path(root)\n        self.class_paths = list(self.class_root.iterdir())",
                13,
                33,
            ),
            (
                "self.paths = list(Path(root).glob('*.png'))\n        self.first = self.paths[0]\n"
                "        self.paths = sorted(self.paths)",
                9,
                27,
            ),
            # Distilled from YOLO-style loaders: labels derived from the image list by a helper, indexed later.
            (
                "self.files = list(glob.glob(root + '/*.jpg'))\n        self.n = len(self.files)\n"
                "        self.labels = to_labels(self.files)",
                9,
                27,
            ),
        ],
        ids=[
            "accumulated",
            "accumulated-then-filtered",
            "assigned-beside-a-none-branch",
            "path-attribute-beside-a-none-branch",
            "sorted-only-after-use",
            "attribute-passed-to-a-helper",
        ],
    )
    def test_listings_accumulated_or_assigned_in_a_branch_are_flagged(self, lines, row, column):
        source = "import glob\nfrom pathlib import Path\n" + in_dataset(lines).replace(
            "(self, root)", "(self, root, exts, cond, split)"
        )
        assert findings(source, {"SL205"}) == [("SL205", row, column)]

    @pytest.mark.parametrize(
        "imports, call, fixable",
        [
            ("import tensorflow as tf", "tf.io.gfile.listdir(root)", True),
            ("import tensorflow as tf", "tf.io.gfile.glob(root + '/*.png')", True),
            ("from tensorflow import gfile", "gfile.ListDirectory(root)", True),
            (
                "from iopath.common.file_io import PathManager\npm = PathManager()",
                "pm.ls(root)",
                True,
            ),
            ("from iopath.common.file_io import g_pathmgr", "g_pathmgr.ls(root)", True),
            ("from detectron2.utils.file_io import PathManager", "PathManager.ls(root)", True),
            (
                "from iopath.common.file_io import PathManagerFactory",
                "PathManagerFactory.get('x').ls(root)",
                True,
            ),
            ("import mmcv", "mmcv.scandir(root, '.jpg')", True),
            ("from mmengine import scandir", "scandir(root, suffix='.png')", True),
            ("from mmengine.fileio import list_dir_or_file", "list_dir_or_file(root)", True),
            ("import fsspec\nfs = fsspec.filesystem('s3')", "fs.ls(root)", False),
            ("import fsspec\nfs = fsspec.filesystem('s3')", "fs.ls(root, detail=False)", True),
            ("import s3fs\nfs = s3fs.S3FileSystem()", "fs.listdir(root)", False),
        ],
        ids=[
            "gfile-listdir",
            "gfile-glob",
            "gfile-v1-list-directory",
            "iopath-instance",
            "iopath-global",
            "detectron2-path-manager",
            "iopath-factory",
            "mmcv-scandir",
            "mmengine-scandir",
            "mmengine-list-dir-or-file",
            "fsspec-ls-detailed",
            "fsspec-ls-names",
            "s3fs-listdir",
        ],
    )
    def test_listing_wrappers_are_flagged(self, imports, call, fixable):
        source = f"{imports}\n" + in_dataset(f"self.files = {call}")
        (diagnostic,) = lint(source, {"SL205"}).diagnostics
        assert diagnostic.code == "SL205" and call.split("(")[0] in diagnostic.message
        assert (diagnostic.fix is not None) is fixable

    def test_fsspec_glob_is_sorted_by_fsspec_and_not_flagged(self):
        source = "import fsspec\nfs = fsspec.filesystem('s3')\n" + in_dataset(
            "self.files = fs.glob(root + '/*.jpg')"
        )
        assert codes_of(source, {"SL205"}) == []

    def test_message_and_help(self):
        (diagnostic,) = lint(in_dataset("self.files = os.listdir(root)"), {"SL205"}).diagnostics
        assert diagnostic.message.startswith("`os.listdir(..)` returns entries in filesystem order")
        assert "not reproducible" in diagnostic.message
        assert diagnostic.help == "Wrap the listing in `sorted(..)`"
        assert diagnostic.fix.applicability is Applicability.SAFE

    @pytest.mark.parametrize(
        "line, expected",
        [
            ("self.files = os.listdir(root)", "self.files = sorted(os.listdir(root))"),
            ("self.files = glob.iglob(root)", "self.files = sorted(glob.iglob(root))"),
            (
                "self.files = list(Path(root).glob('*'))",
                "self.files = sorted(Path(root).glob('*'))",
            ),
            (
                "self.files = list(os.scandir(root))",
                "self.files = list(sorted(os.scandir(root), key=lambda entry: entry.name))",
            ),
            ("self.first = os.listdir(root)[0]", "self.first = sorted(os.listdir(root))[0]"),
            (
                "for e in os.scandir(root):\n            self.files.append(e)",
                "for e in sorted(os.scandir(root), key=lambda entry: entry.name):\n            self.files.append(e)",
            ),
        ],
        ids=["listdir", "iglob", "list-becomes-sorted", "scandir-key", "index", "loop"],
    )
    def test_fix_wraps_the_listing_in_sorted(self, line, expected):
        source = "import glob\nfrom pathlib import Path\n" + in_dataset(line)
        result = fixed(source, {"SL205"})
        assert result == source.replace(line, expected)
        assert fixed(result, {"SL205"}) == result
        assert lint(result, {"SL205"}).diagnostics == []
        libcst.parse_module(result)

    def test_fix_keeps_comments_and_layout(self):
        source = in_dataset(
            "self.files = os.listdir(  # the images\n            root,  # root folder\n        )"
        )
        result = fixed(source, {"SL205"})
        assert comments(result) == ["# the images", "# root folder"]
        assert (
            "self.files = sorted(os.listdir(  # the images\n            root,  # root folder\n        ))"
            in result
        )
        libcst.parse_module(result)

    def test_no_fix_where_sorted_is_shadowed(self):
        source = "def sorted(x):\n    return x\n" + in_dataset("self.files = os.listdir(root)")
        (diagnostic,) = lint(source, {"SL205"}).diagnostics
        assert diagnostic.fix is None


# ============================================================================ SL206
class TestSL206SetIterationOrder:
    def test_off_by_default(self):
        assert "SL206" not in default_codes()
        assert codes_of('labels = {"cat", "dog"}\nclasses = list(labels)\n') == []

    @pytest.mark.parametrize(
        "source, row, column",
        [
            ('labels = {"cat", "dog"}\nclasses = list(labels)\n', 2, 16),
            ('labels = {"cat", "dog"}\nstoi = {w: i for i, w in enumerate(labels)}\n', 2, 36),
            ('key = ",".join({"a", "b"})\n', 1, 16),
            ('words = set("the cat sat".split())\nitos = [w for w in words]\n', 2, 20),
            (
                'import random\nlabels = frozenset(["a", "b"])\npick = random.choice(list(labels))\n',
                3,
                27,
            ),
            ('labels = {"a", "b"}\nfirst = next(iter(labels))\n', 2, 19),
            ('labels = {"a", "b"}\nas_list = [*labels]\n', 2, 13),
            ('labels = {"a", "b"}\nrows = tuple(labels | {"c"})\n', 2, 14),
            ('names = {f"class_{i}" for i in range(3)}\nordered = list(names)\n', 2, 16),
        ],
        ids=[
            "list",
            "vocabulary",
            "join",
            "split-comprehension",
            "choice-of-list",
            "next-iter",
            "unpacking",
            "union",
            "f-string-comprehension",
        ],
    )
    def test_ordered_results_from_string_sets_are_flagged(self, source, row, column):
        assert findings(source, {"SL206"}) == [("SL206", row, column)]

    @pytest.mark.parametrize(
        "source, row, column",
        [
            ("def f(names: list[str]):\n    return list(set(names))\n", 2, 17),
            ("def f(tags: set[str]):\n    return tuple(tags)\n", 2, 18),
            ("from typing import Set\n\ndef f(tags: Set[str]):\n    return list(tags)\n", 4, 17),
            (
                "def f(text):\n    vocab = set()\n    for line in text.splitlines():\n        for w in line.split():\n"
                "            vocab.add(w.lower())\n    return list(vocab)\n",
                6,
                17,
            ),
            (
                "def f(path):\n    words = set(open(path))\n    out = []\n    for w in words:\n        out.append(w)\n"
                "    return out\n",
                4,
                14,
            ),
            (
                "def f(text):\n    stoi = {}\n    for w in set(text.split()):\n        stoi[w] = len(stoi)\n"
                "    return stoi\n",
                3,
                14,
            ),
            (
                "class V:\n    def __init__(self, text):\n        self.words = set(text.split())\n\n"
                "    def itos(self):\n        return list(self.words)\n",
                6,
                21,
            ),
        ],
        ids=[
            "annotated-list",
            "annotated-set",
            "typing-set",
            "filled-with-add",
            "file-lines-loop",
            "numbering-loop",
            "self-attribute",
        ],
    )
    def test_string_evidence_through_names(self, source, row, column):
        assert findings(source, {"SL206"}) == [("SL206", row, column)]

    @pytest.mark.parametrize(
        "source",
        [
            # Order-independent uses.
            'labels = {"a", "b"}\nn = len(labels)\n',
            'labels = {"a", "b"}\nok = "a" in labels\n',
            'labels = {"a", "b"}\ntotal = sum(len(w) for w in labels)\n',
            'labels = {"a", "b"}\nupper = {w.upper() for w in labels}\n',
            'labels = {"a", "b"}\nordered = sorted(labels)\n',
            'labels = {"a", "b"}\nlongest = max(list(labels))\n',
            'labels = {"a", "b"}\nsizes = {w: len(w) for w in labels}\n',
            'labels = {"a", "b"}\nfor w in labels:\n    print(w)\n',
            'labels = {"a", "b"}\nhas = any(w.startswith("a") for w in labels)\n',
            'labels = {"a", "b"}\nfixed = list(sorted(labels))\n',
            # Not strings, or no evidence of strings.
            "ids = list({3, 1, 2})\n",
            "ids = list(set(range(10)))\n",
            "def f(ids):\n    return list(set(ids))\n",
            "def f(ids: list[int]):\n    return list(set(ids))\n",
            "import torch\nparts = list(set(torch.arange(4).split(2)))\n",
            "def f(items):\n    return list({item.name for item in items})\n",
            # Dicts keep insertion order.
            'labels = {"a": 0, "b": 1}\nnames = list(labels)\n',
            # A joined string that is only shown to a person (distilled from lightning_fabric's deepspeed.py).
            'import warnings\nkeys = {"a", "b"}\nwarnings.warn("colliding keys: " + ", ".join(keys))\n',
            'keys = {"a", "b"}\nprint(f"keys: {\', \'.join(keys)}")\n',
            'keys = {"a", "b"}\nraise ValueError("bad keys: " + ", ".join(keys))\n',
            'import logging\nkeys = {"a", "b"}\nlogging.getLogger().warning("keys %s", ", ".join(keys))\n',
            # Distilled from torch/_dynamo/polyfills/heapq.py: prefixes only used by `startswith`.
            'def f(names: set[str], mod: str):\n    prefixes = tuple(n + "." for n in names)\n'
            "    return mod.startswith(prefixes)\n",
            # Distilled from torch/_dynamo/trace_rules.py: a regex alternation matches the same strings in any order.
            'import re\ndirs: set[str] = {"a", "b"}\npattern = re.compile(f".*({\'|\'.join(map(re.escape, dirs))})")\n',
        ],
        ids=[
            "len",
            "in",
            "sum",
            "set-comprehension",
            "sorted",
            "max",
            "dict-comprehension",
            "print-loop",
            "any",
            "sorted-list",
            "int-literals",
            "range",
            "unknown",
            "int-annotation",
            "tensor-split",
            "attribute",
            "dict",
            "join-in-warning",
            "join-in-print-fstring",
            "join-in-exception",
            "join-in-log",
            "startswith-prefixes",
            "regex-alternation",
        ],
    )
    def test_look_alikes_are_not_flagged(self, source):
        assert codes_of(source, {"SL206"}) == []

    def test_message_names_the_cause(self):
        (diagnostic,) = lint('labels = {"a", "b"}\nclasses = list(labels)\n', {"SL206"}).diagnostics
        assert "`labels`" in diagnostic.message
        assert "PYTHONHASHSEED" in diagnostic.message
        assert "different order on every run" in diagnostic.message
        assert diagnostic.fix.applicability is Applicability.SAFE

    @pytest.mark.parametrize(
        "before, after",
        [
            ("classes = list(labels)", "classes = sorted(labels)"),
            (
                "stoi = {w: i for i, w in enumerate(labels)}",
                "stoi = {w: i for i, w in enumerate(sorted(labels))}",
            ),
            ('key = "-".join(labels)', 'key = "-".join(sorted(labels))'),
            ("rows = [w.upper() for w in labels]", "rows = [w.upper() for w in sorted(labels)]"),
            (
                "out = []\nfor w in labels:  # keep\n    out.append(w)",
                "out = []\nfor w in sorted(labels):  # keep\n    out.append(w)",
            ),
            ('rows = tuple(labels | {"c"})', 'rows = tuple(sorted(labels | {"c"}))'),
        ],
        ids=["list-becomes-sorted", "enumerate", "join", "comprehension", "loop", "expression"],
    )
    def test_fix_sorts_the_iterated_set(self, before, after):
        source = f'labels = {{"a", "b"}}\n{before}\n'
        result = fixed(source, {"SL206"})
        assert result == f'labels = {{"a", "b"}}\n{after}\n'
        assert fixed(result, {"SL206"}) == result
        assert lint(result, {"SL206"}).diagnostics == []
        assert comments(result) == comments(source)
        libcst.parse_module(result)
