"""Hypothesis strategies for the fix fuzzer: training scripts assembled from the shapes seedlint's rules judge
(seeding, draws, generators, loaders, samplers, cuDNN flags, listings, sets, dropout, `# noqa`), laid out
oddly (tabs, CRLF or CR, continuations, semicolons, comments, trailing blanks, a BOM, a coding cookie), and
arbitrary valid Python from hypothesmith spliced into them."""

from __future__ import annotations

from dataclasses import dataclass

import hypothesmith
from hypothesis import strategies as st

# How a script may import each library: (key, [(spelling, import statement or None: already bound)]).
# `{T}` in a spelling is the script's name for torch.
_LIBRARIES = [
    (
        "np",
        [("np", "import numpy as np"), ("numpy", "import numpy"), ("onp", "import numpy as onp")],
    ),
    ("random", [("random", "import random"), ("rnd", "import random as rnd")]),
    (
        "cudnn",
        [
            ("{T}.backends.cudnn", None),
            ("cudnn", "import torch.backends.cudnn as cudnn"),
            ("backends.cudnn", "from torch import backends"),
        ],
    ),
    ("nn", [("{T}.nn", None), ("nn", "from torch import nn"), ("nn", "import torch.nn as nn")]),
    (
        "F",
        [
            ("{T}.nn.functional", None),
            ("F", "import torch.nn.functional as F"),
            ("F", "from torch.nn import functional as F"),
        ],
    ),
    (
        "D",
        [
            ("{T}.utils.data.", None),
            ("tud.", "import torch.utils.data as tud"),
            (
                "",
                (
                    "from torch.utils.data import (DataLoader, Dataset, DistributedSampler,\n"
                    "    RandomSampler, TensorDataset, random_split)"
                ),
            ),
        ],
    ),
    ("os", [("os", "import os"), ("os", None)]),  # unbound: a fix that needs `os` adds the import
    ("glob", [("glob", "import glob")]),
    ("wds", [("wds", "import webdataset as wds"), ("webdataset", "import webdataset")]),
    (
        "hf",
        [
            ("load_dataset", "from datasets import load_dataset"),
            ("datasets.load_dataset", "import datasets"),
        ],
    ),
    ("split", [("train_test_split", "from sklearn.model_selection import train_test_split")]),
    (
        "gym",
        [
            ("gym", "import gymnasium as gym"),
            ("gymnasium", "import gymnasium"),
            ("gym", "import gym"),
        ],
    ),
    (
        "procgen",
        [
            ("ProcgenEnv", "from procgen import ProcgenEnv"),
            ("procgen.ProcgenEnv", "import procgen"),
        ],
    ),
]
_EXTRA_IMPORTS = [
    "from torch.cuda import manual_seed_all as seed_gpus",
    "from torch import manual_seed as ms",
    "import time",
    "import argparse",
]
_SEEDS = ["0", "42", "seed", "args.seed", "SEED", "cfg['seed']", "1337 + rank", "2**40", "graine"]
# Shapes: templates of one or more simple statements (` ;; ` between them), by kind.
_SEEDING = [
    "{T}.manual_seed({S})",
    "{T}.cuda.manual_seed_all({S})",
    "{T}.cuda.manual_seed({S})",
    "{T}.default_generator.manual_seed({S})",
    "{np}.random.seed({S})",
    "{random}.seed({S})",
    "{T}.seed()",
    "{random}.seed()",
    "{np}.random.seed(int(time.time()))",
    "set_seed({S})",
    "seed_gpus({S})",
    "ms({S})",
    # in the seeding slot, sometimes none: a training step that seeds nothing (SL112)
    "model = {nn}.Linear(4, 2) ;; opt = {T}.optim.SGD(model.parameters(), lr=0.1) ;; "
    "model({T}.rand(2, 4)).sum().backward() ;; opt.step()",
]
_DRAWS = [
    "x = {T}.rand(3)",
    "noise = {T}.randn(2, 3)",
    "perm = {T}.randperm(10)",
    "y = {T}.randint(0, 10, (5,))",
    "w = {T}.empty(3, 3).uniform_()",
    "arr = {np}.random.rand(3)",
    "scale = {np}.random.uniform(0.0, 0.1)",
    "p = {random}.random()",
    "{random}.shuffle(items)",
    "model = {nn}.Linear(4, 2)",
    "model = Net()",
    "conv = {nn}.Conv2d(3, 8, 3)",
    "h = {F}.dropout(x, 0.5)",
    "x = {T}.randn(4, 4, device='cuda')",
    "données = {T}.rand(2)",
]
_OTHERS = [
    "model = model.cuda()",
    "device = {T}.device('cuda')",
    "model = {nn}.DataParallel(model)",
    "g = {T}.Generator()",
    "g = {T}.Generator(device='cuda')",
    "g = {T}.Generator().manual_seed({S})",
    "dataset = {D}TensorDataset({T}.arange(16))",
    "sampler = {D}RandomSampler(dataset)",
    "loader = {D}DataLoader(dataset, batch_size=8, shuffle=True)",
    "loader = {D}DataLoader(dataset, shuffle=True, num_workers=4, worker_init_fn=seed_worker, generator=g)",
    "loader = {D}DataLoader(dataset, shuffle=True, generator={T}.Generator())",
    "train_set, val_set = {D}random_split(dataset, [12, 4])",
    "parts = {D}random_split(dataset, [0.8, 0.2], generator=g)",
    "train_set, val_set = {D}random_split(\ndataset,\n[8, 2],  # sizes\n)",
    "{cudnn}.benchmark = True",
    "{cudnn}.benchmark = False",
    "{cudnn}.deterministic = True",
    "{cudnn}.determinstic = True",
    "{cudnn}.benchmrk = True",
    "{cudnn}.enabled = True",
    "fast = {cudnn}.benchmark = True",
    "setattr({cudnn}, 'benchmark', True)",
    "{T}.use_deterministic_algorithms(True)",
    "{T}.use_deterministic_algorithms = True",
    "{T}.manual_seed = {S}",
    "{os}.environ['PYTHONHASHSEED'] = str({S})",
    "{os}.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'",
    "{os}.environ['CUBLAS_WORKSPACE_CONFIG'] = ':0:0'",
    "files = {os}.listdir(root)",
    "files = {glob}.glob(root + '/*.png')",
    "dataset = Frames(root)",
    "labels = {{'cat', 'dog'}} ;; classes = list(labels)",
    "stoi = {{w: i for i, w in enumerate(set(words))}}",
    "key = ','.join({{'a', 'b'}})",
    "pass",
    "print('graine: é', {S})",
    "args = parser.parse_args()",
    "optimizer = {T}.optim.SGD(model.parameters(), lr=0.1)",
    "main()",
    "loss = model(x).sum() ;; loss.backward()",
    "shards = {wds}.WebDataset('a.tar').shuffle(1000).decode('pil')",
    "stage = {wds}.shuffle(100, rng=None)",
    "stream = {hf}('c4', streaming=True)['train'].shuffle(buffer_size=100)",
    "splits = {hf}('imdb')['train'].train_test_split(test_size=0.1)",
    "a, b = {split}(items, test_size=0.5)",
    "obs, info = env.reset(seed={S})",
    "venv = {procgen}(num_envs=2, env_name='maze', rand_seed=None)",
]
_SCENARIOS = [  # the fixable findings that random shapes rarely meet
    "{T}.cuda.manual_seed_all({S}) ;; train_set, val_set = {D}random_split(dataset, [12, 4])",
    "{T}.cuda.manual_seed({S}) ;; sampler = {D}RandomSampler(\ndataset,  # all of it\n)",
    "{T}.manual_seed({S}) ;; loader = {D}DataLoader(dataset, shuffle=True, generator={T}.Generator())",
    "{T}.manual_seed({S}) ;; {T}.use_deterministic_algorithms(True) ;; x = {T}.randn(4, 4, device='cuda')",
    "{T}.default_generator.manual_seed({S}) ;; x = {T}.randn(4, 4, device='cuda')",
    "{T}.manual_seed({S}) ;; model = model.cuda()",
    "x = {T}.rand(3) ;; {T}.manual_seed({S})",
    "{T}.manual_seed({S}) ;; shards = {wds}.WebDataset('a.tar').shuffle(\n1000,  # buffer\n)",
    "{T}.manual_seed({S}) ;; stream = {hf}('c4', streaming=True)['train'].shuffle()",
    "{T}.manual_seed({S}) ;; model(x).sum().backward()",
    "{T}.manual_seed({S}) ;; env = {gym}.make('CartPole-v1') ;; obs, info = env.reset() ;; a = env.action_space.sample()",
    "{T}.manual_seed({S}) ;; venv = {procgen}(num_envs=4, env_name='coinrun')",
    (
        "{T}.manual_seed({S}) ;; ckpt = {T}.load('last.pt') ;; start = ckpt['epoch'] + 1 ;; "
        "for epoch in range(start, 9): {T}.save({{'epoch': epoch, 'model': 1}}, 'last.pt')"
    ),
    (
        "{T}.manual_seed({S}) ;; state = {T}.load(path, weights_only=False) ;; "
        "step = state.get('step') ;; for i in range(step, 9): {T}.save({{\n'step': i,  # done\n}}, path)"
    ),
]
_LOADERS = [  # what an epoch loop may iterate
    "sampler = {D}DistributedSampler(dataset) ;; loader = {D}DataLoader(dataset, batch_size=4, sampler=sampler)",
    (
        "sampler = {D}DistributedSampler(dataset, num_replicas=2, rank=0, shuffle=True) ;; "
        "loader = {D}DataLoader(dataset, sampler=sampler, num_workers=2)"
    ),
]
# Compound statements: their clauses' headers; the bodies are drawn.
_COMPOUNDS = [
    ["if args.seed is not None:"],
    ["if {T}.cuda.is_available():"],
    ["for epoch in range(3):"],
    ["with {T}.no_grad():"],
    ["try:", "except Exception:"],
    ["if args.deterministic:", "else:"],
    ["while step < 10:"],
    ["for name in set(names):"],
    ["for batch in loader:"],
    ["def main():"],
    ["with {T}.random.fork_rng():"],
]
_DROPOUTS = [  # the statements of a `forward`
    ["return {F}.dropout(self.fc(x), p=0.5)"],
    ["return {F}.dropout(x, 0.5, training=self.training)"],
    ["x = {F}.dropout(\nx,\n0.2,\n)", "return x"],
    ["x = {F}.dropout(x, 0.3,  # rate\n)", "return x"],
    ["return {F}.alpha_dropout(x)"],
    ["return {F}.dropout2d(x, p=0.1,)"],
]
_LISTINGS = [
    "self.files = {os}.listdir(root)",
    "self.files = {glob}.glob(root + '/*.png')",
    "self.files = list({os}.scandir(root))",
    "self.files = sorted({os}.listdir(root))",
    "self.files = [f for f in {os}.listdir(root) if f.endswith('.png')]",
]
_NOQA = [
    "  # noqa",
    "  # noqa: SL104",
    "  # noqa: SL101, SL105",
    "# noqa:SL301",
    "  # NOQA: SL302",
    "  # noqa: E501",
    "  # noqa: SL999",
    "  # noqa: SL100",
    "  # type: ignore  # noqa: SL205",
    "  # noqa: SL104,SL204",
    "  # noqa: SLOT000",
    "  # seedlint: noqa",
    "\t# noqa : SL201",
]
_COMMENTS = [
    "# a comment",
    "# données : graine",
    "# 日本語",
    "#",
    "# noqa: SL104",
    "# seedlint: noqa: SL104, SL105",
    "# fmt: off",
]


@dataclass
class Compound:
    """A compound statement: (header, body) clauses, a body being a list of statements."""

    clauses: list[tuple[str, list]]


@dataclass
class Line:
    """A physical line before layout: its nesting level, its text, and whether it starts a statement."""

    level: int
    text: str
    starts: bool = True


@dataclass
class Palette:
    """What one script is made of: its shapes (lists of simple statements), loader setups, compound headers."""

    shapes: list[list[str]]
    loaders: list[list[str]]
    compounds: list[list[str]]


@st.composite
def _spellings(draw) -> tuple[dict[str, str], list[str]]:
    """The script's spelling of each library, and the imports that bind them."""
    torch = draw(st.sampled_from(["torch", "th"]))
    names = {"T": torch}
    imports = [
        draw(st.sampled_from(["import torch", "import torch, numpy as np"]))
        if torch == "torch"
        else "import torch as th"
    ]
    for key, options in _LIBRARIES:
        spelling, statement = draw(st.sampled_from(options))
        names[key] = spelling.format(T=torch)
        if statement is not None:
            imports.append(statement)
    imports += draw(st.lists(st.sampled_from(_EXTRA_IMPORTS), unique=True, max_size=2))
    return names, draw(st.permutations(imports))


def _statements(template: str, names: dict[str, str], seed: str = "seed") -> list[str]:
    return template.format(**names, S=seed).split(" ;; ")


@st.composite
def _block(draw, palette: Palette, depth: int) -> list:
    """A body of shapes from the palette and (below `depth`) compound statements."""
    shape = st.sampled_from(palette.shapes)
    if depth > 0:
        shape = st.one_of(
            *[shape] * 8, _compound(palette, depth - 1).map(lambda c: [c]), _epochs(palette)
        )
    shapes = draw(st.lists(shape, min_size=1, max_size=3 + 2 * depth))
    return [statement for statements in shapes for statement in statements]


@st.composite
def _compound(draw, palette: Palette, depth: int) -> Compound:
    headers = draw(st.sampled_from(palette.compounds))
    return Compound([(header, draw(_block(palette, depth))) for header in headers])


@st.composite
def _epochs(draw, palette: Palette) -> list:
    """An epoch loop over a loader, perhaps set up with a DistributedSampler, perhaps calling `set_epoch`."""
    target = draw(st.sampled_from(["epoch", "(epoch)", "epoch, _"]))
    epoch = ["sampler.set_epoch(epoch)"] if draw(st.booleans()) else []
    steps = Compound([("for batch in loader:", draw(_block(palette, 0)))])
    setup = draw(st.sampled_from([[], *palette.loaders]))
    return [*setup, Compound([(f"for {target} in range(args.epochs):", [*epoch, steps])])]


@st.composite
def _definitions(draw, names: dict[str, str]) -> list:
    """Optional helpers: a seeding function, a worker seeder, an `nn.Module` with dropout, a listing dataset."""
    seeding = st.sampled_from(_SEEDING[:9]).map(lambda template: _statements(template, names)[0])
    worker_seed = draw(st.sampled_from(["{T}.initial_seed() % 2**32", "0"])).format(**names)
    forward = draw(st.sampled_from(["def forward(self, x):", "@staticmethod\ndef forward(x):"]))
    helpers = [
        Compound([("def set_seed(seed):", draw(st.lists(seeding, min_size=1, max_size=4)))]),
        Compound(
            [
                (
                    "def seed_worker(worker_id):",
                    [
                        f"worker_seed = {worker_seed}",
                        *_statements(
                            "{np}.random.seed(worker_seed) ;; {random}.seed(worker_seed)", names
                        ),
                    ],
                )
            ]
        ),
        Compound(
            [
                (
                    _statements("class Net({nn}.Module):", names)[0],
                    [
                        Compound(
                            [
                                (
                                    "def __init__(self):",
                                    _statements(
                                        "super().__init__() ;; self.fc = {nn}.Linear(8, 8)", names
                                    ),
                                )
                            ]
                        ),
                        Compound(
                            [
                                (
                                    forward,
                                    [
                                        _statements(line, names)[0]
                                        for line in draw(st.sampled_from(_DROPOUTS))
                                    ],
                                )
                            ]
                        ),
                    ],
                )
            ]
        ),
        Compound(
            [
                (
                    _statements("class Frames({D}Dataset):", names)[0],
                    [
                        Compound(
                            [
                                (
                                    "def __init__(self, root):",
                                    _statements(draw(st.sampled_from(_LISTINGS)), names),
                                )
                            ]
                        ),
                        Compound([("def __len__(self):", ["return len(self.files)"])]),
                        Compound([("def __getitem__(self, i):", ["return self.files[i]"])]),
                    ],
                )
            ]
        ),
    ]
    return [helper for helper in helpers if draw(st.booleans())]


@st.composite
def _lines(draw, statements: list, level: int = 0) -> list[Line]:
    """Lay out statements: inline suites, semicolons, backslash and bracket continuations."""
    lines: list[Line] = []
    for statement in statements:
        if isinstance(statement, Compound):
            for header, body in statement.clauses:
                *decorators, header = header.split("\n")
                lines += [Line(level, decorator) for decorator in decorators]
                if (
                    len(body) == 1
                    and isinstance(body[0], str)
                    and "\n" not in body[0]
                    and draw(st.booleans())
                ):
                    lines.append(Line(level, f"{header} {body[0]}"))
                else:
                    lines.append(Line(level, header))
                    lines += draw(_lines(body, level + 1))
            continue
        layout = draw(st.sampled_from(["plain", "plain", "plain", "backslash", "brackets"]))
        opening, closing = statement.find("("), statement.rfind(")")
        if "\n" in statement or layout == "plain" or layout == "brackets" and opening < 0:
            text = statement
        elif layout == "backslash":
            text = (
                statement.replace(" = ", " = \\\n", 1)
                if " = " in statement
                else statement.replace(".", " \\\n.", 1)
            )
        else:
            text = f"{statement[: opening + 1]}\n{statement[opening + 1 : closing]}\n{statement[closing:]}"
        first, *rest = text.split("\n")
        previous = lines[-1] if lines else None
        if (
            not rest
            and previous is not None
            and previous.starts
            and previous.level == level
            and ":" not in previous.text
            and not previous.text.endswith(("\\", "("))
            and draw(st.integers(0, 4)) == 0
        ):
            previous.text += f"; {first}"
        else:
            lines.append(Line(level, first))
        lines += [Line(level + 1, continuation, starts=False) for continuation in rest]
    return lines


@st.composite
def training_texts(draw) -> str:
    """The text of a training script: imports, helpers, a body (perhaps in `main()`), laid out oddly."""
    names, imports = draw(_spellings())
    seed = draw(st.sampled_from(_SEEDS))
    # A few shapes of each kind per script, so that scripts combine them in many ways.
    shapes = [
        _statements(template, names, seed)
        for pool, fewest, most in (
            (_SEEDING, 1, 3),
            (_DRAWS, 1, 3),
            (_OTHERS, 1, 6),
            (_SCENARIOS, 0, 2),
        )
        for template in draw(
            st.lists(st.sampled_from(pool), min_size=fewest, max_size=most, unique=True)
        )
    ]
    palette = Palette(
        shapes,
        [_statements(template, names) for template in _LOADERS],
        [[header.format(**names) for header in headers] for headers in _COMPOUNDS],
    )
    body = draw(_block(palette, depth=2))
    if seed.isidentifier() and draw(st.booleans()):
        body.insert(0, f"{seed} = 42")
    statements: list = [*imports, *draw(_definitions(names))]
    if draw(st.booleans()):
        statements += [
            Compound([("def main():", body)]),
            Compound([("if __name__ == '__main__':", ["main()"])]),
        ]
    else:
        statements += body
    if draw(st.booleans()):
        statements.insert(
            0, draw(st.sampled_from(['"""Train a model."""', "from __future__ import annotations"]))
        )
    return _render(draw, draw(_lines(statements)))


def _render(draw, lines: list[Line]) -> str:
    """Join lines with one indentation unit and newline, adding comments, `# noqa`, blanks, trailing blanks."""
    indent = draw(st.sampled_from(["    ", "  ", "\t"]))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    # One in how many lines gets each decoration (0: none in this script).
    comments, noqa, blanks = (draw(st.sampled_from([0, 0, 3, 10])) for _ in range(3))
    out = []
    for line in lines:
        prefix = indent * line.level
        if line.starts and comments and draw(st.integers(0, comments)) == 0:
            out.append(
                draw(st.sampled_from(["", prefix, prefix + draw(st.sampled_from(_COMMENTS))]))
            )
        text = prefix + line.text
        if not text.endswith("\\"):
            if noqa and draw(st.integers(0, noqa)) == 0:
                text += draw(st.sampled_from(_NOQA))
            if blanks and draw(st.integers(0, blanks)) == 0:
                text += draw(st.sampled_from([" ", "\t", "  "]))
        out.append(text)
    text = newline.join(out)
    return text if draw(st.integers(0, 4)) == 0 else text + newline


@st.composite
def _encoded(draw, texts: st.SearchStrategy[str]) -> bytes:
    """A text as file bytes: UTF-8, UTF-8 with a BOM, or Latin-1 under a coding cookie when it fits."""
    text = draw(texts)
    encodings = ["utf-8", "utf-8", "utf-8-sig"]
    try:
        text.encode("latin-1")
        encodings.append("latin-1")
    except UnicodeEncodeError:
        pass
    encoding = draw(st.sampled_from(encodings))
    if encoding == "latin-1":
        text = "# -*- coding: latin-1 -*-\n" + text
    return text.encode(encoding)


@st.composite
def _spliced(draw, python: st.SearchStrategy[str]) -> str:
    """Arbitrary valid Python before or after a training script."""
    script, code = draw(training_texts()), draw(python)
    return f"{code}\n{script}" if draw(st.booleans()) else f"{script}\n{code}"


def training_scripts() -> st.SearchStrategy[bytes]:
    return _encoded(training_texts())


def grammar_scripts() -> st.SearchStrategy[bytes]:
    return _encoded(_spliced(hypothesmith.from_grammar()))


def node_scripts() -> st.SearchStrategy[bytes]:
    return _encoded(_spliced(hypothesmith.from_node()))
