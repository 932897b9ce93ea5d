"""Gates: the byte pre-filter that decides, before anything is parsed, which files and modules are
worth it.

Parsing is seedlint's biggest cost, and most files cannot give a finding. A gate is a tuple of byte
spellings: bytes that contain none of them are not parsed for that question. Three kinds of
question:

- which rules to run on a file: each rule's `patterns` (a tuple entry: all of its parts), where
  `SEEDING` stands for "this file may seed" (`may_seed`), `UNSEEDED` for "this file may seed
  nothing", `SCRIPT` for "this file may be a script" (a notebook, a `__main__` block, a top-level
  loop) `DISTRIBUTED` for "this file calls a project function handing out a DistributedSampler",
  `TRAINED` for "a seeded CUDA program of the project trains this module" and `RUN_SEEDED` for
  "a seeded program of the project runs this module" (a `program_gate` among the project gates);
- whether a file may seed: a seeding spelling (`SEEDING_SPELLINGS`, the names of the configured
  `seed-functions`), or a call of one of the project's own seeding helpers, whose `name(` spellings
  the project facts find (the project gates: `init_seeds(`, `Trainer(`);
- which other modules the project index reads to answer a question about a call into them: only
  those whose bytes can hold the answer (`MAY_SEED`, `MAY_SEED_OR_DRAW`, `ITERATES`, ...).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Protocol

from seedlint.files import MAIN_BLOCK

# A file that contains none of these bytes cannot call a seeding function (`seed(` covers
# `manual_seed(`, `random.seed(`, `set_seed(`, `random_seed(`...; `seed as` an aliased import;
# `Trainer(` a transformers Trainer, which seeds when constructed).
SEEDING_SPELLINGS = (
    b"seed(",
    b"seed_all",
    b"seed_everything",
    b"seed_all_rng",
    b"seed as ",
    b"enable_full_determinism",
    b"enable_reproducibility",
    b"set_determinism",
    b"Trainer(",
)
# `Trainer(` is a seeding spelling for transformers' trainers (which seed when built); Lightning's
# `Trainer(` seeds nothing, and the flow tells the two apart.
TRAINER = b"Trainer("
# Seeding spellings that seed no global generator: a `torch.Generator`'s own seed, a space's, and
# `torch.initial_seed()`, which only reads the seed.
_PRIVATE_SEEDING = re.compile(
    rb"Generator\([^()]*\)\.manual_seed\(|_space\.seed\(|\binitial_seed\("
    # a function that takes a worker's id (a `worker_init_fn`): its body, indented below it, seeds
    # the loader's workers, not the program
    rb"|^([ \t]*)def \w+\(\s*worker_id\b[^\n]*\n(?:(?:\1[ \t]+[^\n]*)?\n)*",
    re.MULTILINE,
)
# The project gate of a module that seeds when imported (`import config`, `config import`).
_IMPORT_GATE = re.compile(rb"^import |.* import$")
# In a rule's patterns, stands for "any seeding spelling": SEEDING_SPELLINGS, the configured
# `seed-functions` and the project gates (`init_seeds(`, `Trainer(`).
SEEDING = b"\x00seeding"
# In a rule's patterns, stand for "this file may seed nothing" (no seeding spelling but, possibly,
# `Trainer(`) and "this file may be a script" (a notebook, a `__main__` block, a top-level training
# loop).
UNSEEDED = b"\x00unseeded"
SCRIPT = b"\x00script"
# In a rule's patterns, stands for "this file may be a program": a script, or a module whose top
# level reads the command line and calls its own functions.
PROGRAM = b"\x00program"
# a `__main__` block, or top-level code that looks like training: a loop over epochs, a range, a
# loader, batches or steps, or any `while` loop (a library module's top-level `for` loops register
# or copy names), or a call that may train (`scene.fit(rays)`, `trainer.train()`, `train(model)`,
# `runner.run(..)`, `evaluator.evaluate(..)`, `Runner(args).train()`); at the top level or in a
# top-level `if`, `else`, `try` or `with` block (`try: for epoch in ..: except KeyboardInterrupt:`)
# a `__main__` block: the file is run as a script (its folder first in `sys.path`)
_TRAINING_LINE = re.compile(
    rb"^[ \t]*(?:"
    rb"(?:for|async for) .*(?:epoch|range\(|loader|batch|enumerate\(|tqdm\(|step|iter)"
    rb"|while\b"
    rb"|(?:[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*)?(?:[\w.]+\([^()\n]*\)\.)?[\w.]*\b(?:train|fit|run|evaluate)\w*\("
    rb")",
    re.MULTILINE,
)
# a line of code at column 0 (not a comment, nor the closing bracket of a statement above)
_COLUMN_ZERO = re.compile(rb"^[^ \t\r\n#)\]}]", re.MULTILINE)
_DEFINITION = (b"def ", b"async ", b"class ", b"@")
_FUNCTION = re.compile(rb"^def (\w+)", re.MULTILINE)
_OPTIONS = re.compile(rb"\bsys\.argv\b|\.parse_(?:known_)?args\(")


@lru_cache(maxsize=4)
def _top_level(data: bytes) -> tuple[tuple[int, int], ...]:
    """The spans of the module's top-level statements (a statement runs from a line at column 0
    to the next); found once for the questions a file's gates ask."""
    starts = [line.start() for line in _COLUMN_ZERO.finditer(data)]
    return tuple(zip(starts, [*starts[1:], len(data)]))


@lru_cache(maxsize=4)
def _module_body(data: bytes) -> tuple[tuple[int, int], ...]:
    """The spans of the module's top-level statements that are not definitions."""
    return tuple(
        (start, end) for start, end in _top_level(data) if not data.startswith(_DEFINITION, start)
    )


def _body_calls(data: bytes, names: list[bytes], body: Sequence[tuple[int, int]]) -> bool:
    """Whether a span of the module body calls one of the functions `names` by name (not as a
    method: `.name(`)."""
    if not names:
        return False
    called = re.compile(rb"(?<![\w.])(?:" + b"|".join(names) + rb")\(")
    return any(called.search(data, start, end) for start, end in body)


def _trains_at_top_level(data: bytes) -> bool:
    """Whether a line that looks like training runs in the module body: at column 0, or inside
    a top-level statement that is not a definition (the definitions' bodies are not searched)."""
    return any(_TRAINING_LINE.search(data, start, end) for start, end in _module_body(data))


def _calls_own_training(data: bytes) -> bool:
    """Whether the module body calls one of the module's own functions whose body runs a backward
    pass (`forward_process(model, data, ..)` at the top level, its `loss.backward()` inside)."""
    if b".backward(" not in data:
        return False
    trainers = [
        match.group(1)
        for start, end in _top_level(data)
        if (match := _FUNCTION.match(data, start)) and data.find(b".backward(", start, end) != -1
    ]
    return _body_calls(data, trainers, _module_body(data) if trainers else ())


def _defines(data: bytes, gate: bytes) -> bool:
    """Whether the bytes define a function named as the gate (`train(`), at any depth."""
    if b"def " + gate not in data:
        return False
    return (
        re.search(rb"^[ \t]*(?:async[ \t]+)?def " + re.escape(gate), data, re.MULTILINE) is not None
    )


def _runs_own_function(data: bytes) -> bool:
    """Whether the module body reads the command line and calls one of the module's own
    functions (`mode = sys.argv[1]`, then `binary_classification(model, ..)`)."""
    body = _module_body(data)
    if not any(_OPTIONS.search(data, start, end) for start, end in body):
        return False
    return _body_calls(data, _FUNCTION.findall(data), body)


# In a rule's patterns, stands for "a seeded CUDA program of the project trains this module": the
# project gates hold a `program_gate` for it.
TRAINED = b"\x00trained:"
# In a rule's patterns, stands for "a program of the project that seeds runs this module" (on any
# device, training or not): the project gates hold a `program_gate` for it.
RUN_SEEDED = b"\x00run-seeded:"
_RUN_BY_PROGRAMS = (TRAINED, RUN_SEEDED)
# In a rule's patterns, stands for "this file calls a project function that hands out a shuffling
# DistributedSampler" (`build_loader(`): the project gates hold DISTRIBUTED + its `name(`.
DISTRIBUTED = b"\x00distributed:"

# In the project gates, marks `name(` of a seeding helper that a test file defines (a fixture, a
# mock's `from_pretrained`): it may seed what other tests call, not what a script calls.
TEST_HELPER = b"\x00test:"
# What another module's bytes must hold for the project index to read it for a question.
MAY_SEED = (b"seed",)
MAY_SEED_OR_DRAW = MAY_SEED + (
    b"rand",
    b"nn.",
    b"torch.nn",
    b"normal",
    b"uniform",
    b"dropout",
    b"shuffle",
    b"choice",
    b"sample",
    b"bernoulli",
    b"multinomial",
    b"permutation",
    b"gauss",
    b"Generator",
    b"timm",
    b"peft",
    b"torchvision",
    b"transformers",  # libraries whose model builders draw (catalog.LIBRARY_DRAWS)
)
SUBCLASSES_A_TRAINER = (b"Trainer)", b"Trainer,")  # a subclass of catalog.SEEDING_CLASSES
LOADS_WEIGHTS = (b"load_state_dict", b"load_raw", b"load_model")  # a helper loading weights
ITERATES = (b"for ",)  # a function that iterates a data loader
RESETS = (b"reset",)  # a function that resets an environment
SETS_BENCHMARK = (b"benchmark",)  # a helper that sets cuDNN's benchmark mode
STAR_IMPORT = b"import *"


def program_gate(kind: bytes, module: str, program: str, definition: str) -> bytes:
    """The project gate saying that the program at path `program` runs `definition` (a class or
    function, "" for the top level) of the module at path `module` (both paths absolute): `kind`
    is `TRAINED` (a seeded CUDA program that trains) or `RUN_SEEDED` (a program that seeds)."""
    return b"\x00".join((kind + os.fsencode(module), os.fsencode(program), definition.encode()))


def trainers(gates: Iterable[bytes], module: str, kind: bytes = TRAINED) -> dict[str, list[str]]:
    """What the project gates of `kind` say of the module at path `module`: for each definition
    of it that a program runs, the programs (paths, sorted)."""
    known = _trainers_by_module(frozenset(gates), kind).get(
        os.fsencode(os.path.abspath(module)), {}
    )
    return {definition: list(programs) for definition, programs in known.items()}


@lru_cache(maxsize=8)
def _trainers_by_module(gates: frozenset[bytes], kind: bytes) -> dict[bytes, dict[str, list[str]]]:
    """`trainers` of every module the gates of `kind` name (read once per set of gates, which a
    run asks of every file)."""
    found: dict[bytes, dict[str, list[str]]] = {}
    for gate in sorted(gates):
        if gate.startswith(kind):
            module, _, rest = gate[len(kind) :].partition(b"\x00")
            program, _, definition = rest.partition(b"\x00")
            found.setdefault(module, {}).setdefault(definition.decode(), []).append(
                os.fsdecode(program)
            )
    return found


# What a program's bytes must hold besides a seeding spelling for the analysis of what it runs: for
# `TRAINED`, a device and a training word (its trainer may put the model on CUDA and backpropagate);
# for `RUN_SEEDED`, a resume (handed to a trainer that resumes).
_RUN_ON_A_DEVICE = (b"cuda", b"gpu", b"device", b"DataParallel")
_TRAINS = (b"backward", b"autograd", b"training_step", b"train")
_RESUMES = (b"resume", b"checkpoint", b"ckpt", b"restore")


def program_kinds(data: bytes) -> tuple[bytes, ...]:
    """The kinds of program gates (`TRAINED`, `RUN_SEEDED`) that a file's bytes may give: it may
    seed, and its CUDA use, backward passes and resumes may be in the project code it runs."""
    if not contains_any(data, MAY_SEED):
        return ()
    kinds = ((TRAINED, (_RUN_ON_A_DEVICE, _TRAINS)), (RUN_SEEDED, (_RESUMES,)))
    return tuple(
        kind for kind, groups in kinds if all(contains_any(data, group) for group in groups)
    )


def asks_for_trainers(rules: Sequence[HasPatterns], data: bytes) -> bool:
    """Whether one of the rules would run on these bytes if a program trained their module (a
    pattern with `TRAINED` or `RUN_SEEDED` whose other parts the bytes hold)."""
    return any(
        isinstance(pattern, tuple)
        and any(kind in pattern for kind in _RUN_BY_PROGRAMS)
        and all(_holds(data, part) for part in pattern if part not in _RUN_BY_PROGRAMS)
        for rule in rules
        for pattern in rule.patterns
    )


def opened_by(path: Path, data: bytes, gates: frozenset[bytes]) -> tuple[bool, dict]:
    """What project gates open a file to: the seeding rules (one of them in its bytes), and the
    programs that train it."""
    return may_seed(data, _spelt(gates)), trainers(gates, str(path))


@lru_cache(maxsize=8)
def _spelt(gates: frozenset[bytes]) -> tuple[bytes, ...]:
    """The project gates that are spellings a file's bytes may hold (not the marks that start
    with a NUL: a program that trains a module, a test's helper)."""
    return tuple(gate for gate in gates if not gate.startswith(b"\x00"))


# A part of a rule's pattern: bytes the file must contain, or a regular expression its bytes must
# match (what a rule can flag, where a spelling alone would open most files).
Part = bytes | re.Pattern[bytes]


@cache
def _plan(patterns: tuple[Part | tuple[Part, ...], ...]) -> tuple[tuple[Part, tuple], ...]:
    """A rule's patterns grouped by the part each looks for first: (that part, the rest of each
    pattern that starts with it). The parts answered without searching the bytes (`SEEDING`,
    known already, and whether programs run the file) come first: they rule out most files at
    once, and SL303's 141 operations are then passed over together."""
    groups: dict[Part, list[tuple[Part, ...]]] = {}
    for pattern in patterns:
        parts = (
            sorted(pattern, key=lambda part: part not in (SEEDING, *_RUN_BY_PROGRAMS))
            if isinstance(pattern, tuple)
            else [pattern]
        )
        groups.setdefault(parts[0], []).append(tuple(parts[1:]))
    return tuple((first, tuple(rests)) for first, rests in groups.items())


def _holds(data: bytes, part: Part) -> bool:
    """Whether the bytes contain a pattern's part (match it: a regular expression)."""
    return part.search(data) is not None if isinstance(part, re.Pattern) else part in data


class HasPatterns(Protocol):
    patterns: tuple[Part | tuple[Part, ...], ...]


# A line that is only a comment, in a Python file or in a notebook's JSON
# (`"# torch.manual_seed(1)\n",`)
_COMMENT_LINE = re.compile(rb'^[ \t]*"?[ \t]*#[^\n]*', re.MULTILINE)


def without_comments(data: bytes) -> bytes:
    """The bytes without the lines that are only comments (code commented out runs nothing)."""
    return _COMMENT_LINE.sub(b"", data) if b"#" in data else data


def contains_any(data: bytes, gate: Iterable[bytes]) -> bool:
    """Whether the bytes contain one of the gate's spellings."""
    return any(spelling in data for spelling in gate)


def calls_a_gate(data: bytes, gates: Iterable[bytes], methods: bool = True) -> bool:
    """Whether the bytes call one of the project's seeding helpers (`init_seeds(`): its name as a
    whole word, not the tail of another (the gate `init(` is not in `__init__(`); with `methods`
    false, not as a method of an object either (`.train(`)."""
    for gate in gates:
        start = data.find(gate)
        while start != -1:
            before = data[start - 1 : start]
            if not (before.isalnum() or before == b"_" or (before == b"." and not methods)):
                return True
            start = data.find(gate, start + 1)
    return False


def may_seed(
    data: bytes, project_gates: Iterable[bytes] = (), spellings: Sequence[bytes] = SEEDING_SPELLINGS
) -> bool:
    """Whether a file's bytes may seed: a seeding spelling, or a call of one of the project's
    seeding helpers."""
    return contains_any(data, spellings) or calls_a_gate(data, project_gates)


class Gate:
    """What opens a file to the rules: their patterns, the seeding spellings (with the names of the
    configured `seed-functions`) and the project gates."""

    def __init__(
        self,
        seed_functions: Iterable[str] = (),
        project_gates: Iterable[bytes] = (),
        for_tests: bool = False,
    ) -> None:
        self.spellings = SEEDING_SPELLINGS + tuple(
            name.rsplit(".", 1)[-1].encode() for name in seed_functions
        )
        # the seeding helpers of test files open only test files (`for_tests`)
        self.project_gates = tuple(
            sorted(
                g.removeprefix(TEST_HELPER)
                for g in project_gates
                if not g.startswith((*_RUN_BY_PROGRAMS, DISTRIBUTED))
                and (for_tests or not g.startswith(TEST_HELPER))
            )
        )
        # the spellings but `Trainer(` (which the flow tells apart)
        self._beyond_trainers = tuple(
            spelling for spelling in self.spellings if spelling != TRAINER
        )
        # `name(` of the project functions that hand out a shuffling DistributedSampler
        self.distributed = tuple(
            sorted(g[len(DISTRIBUTED) :] for g in project_gates if g.startswith(DISTRIBUTED))
        )
        # TRAINED or RUN_SEEDED + path, for each module a program trains or runs
        self.run_by_programs = frozenset(
            g[: g.index(b"\x00", 1)] for g in project_gates if g.startswith(_RUN_BY_PROGRAMS)
        )

    def seeds(self, data: bytes) -> bool:
        """Whether the bytes may seed: a seeding spelling, a configured `seed-functions` name, or
        a call of one of the project's seeding helpers."""
        return may_seed(data, self.project_gates, self.spellings)

    def seeds_beyond_trainers(self, data: bytes) -> bool:
        """Whether the bytes may seed otherwise than by building a `Trainer(` (which the flow
        tells apart: transformers' seeds, Lightning's does not)."""
        return may_seed(data, self.project_gates, self._beyond_trainers)

    def seeds_globally(self, data: bytes) -> bool:
        """Whether the bytes surely hold a seeding of global generators: a seeding spelling that is
        not the seeding of a private generator (`torch.Generator().manual_seed(42)`, a space's
        `seed(`), or a call of a project helper that is not a method of some object (`model.train()`
        is not the project's `train(`). Not an import of a module named like one that seeds on
        import: script folders each hold their own `dataset.py`, and which one it is the analysis
        tells."""
        spellings = self._beyond_trainers
        # a helper's name the file defines itself (at its top level, or nested in its `__main__`
        # block) is its own function (`def train(loader):` then `train(loader)`, beside another
        # module's seeding `train`); only the names the bytes hold are asked
        gates = tuple(
            gate
            for gate in self.project_gates
            if gate in data and not _IMPORT_GATE.match(gate) and not _defines(data, gate)
        )

        def seeds(text: bytes) -> bool:
            return contains_any(text, spellings) or calls_a_gate(text, gates, methods=False)

        # what is commented out or private is removed only from a text that spells seeding
        return seeds(data) and seeds(_PRIVATE_SEEDING.sub(b"", without_comments(data)))

    def rules_for(self, rules: Sequence[HasPatterns], data: bytes, path: str = "") -> list:
        """The rules whose patterns the bytes (of the file at `path`) contain (a tuple pattern: all
        of its parts)."""
        seeding = self.seeds(data)
        module = os.fsencode(os.path.abspath(path)) if path else None

        found: dict[Part, bool] = {}  # each part is looked for once, however many rules have it

        def contains(part: Part) -> bool:
            known = found.get(part)
            if known is None:
                known = found[part] = _contains(part)
            return known

        def _contains(part: Part) -> bool:
            if part == SEEDING:
                return seeding
            if part == UNSEEDED:
                # a notebook's seeding may sit in a function its cells call with no seed
                return not self.seeds_globally(data) or path.endswith(".ipynb")
            if part == SCRIPT:
                return (
                    path.endswith(".ipynb")
                    or MAIN_BLOCK.search(data) is not None
                    or _trains_at_top_level(data)
                    or _calls_own_training(data)
                )
            if part == PROGRAM:
                return contains(SCRIPT) or _runs_own_function(data)
            if part == DISTRIBUTED:
                return calls_a_gate(data, self.distributed)
            if part in _RUN_BY_PROGRAMS:
                return module is not None and part + module in self.run_by_programs
            return _holds(data, part)

        return [
            rule
            for rule in rules
            if any(
                contains(first) and any(all(map(contains, rest)) for rest in rests)
                for first, rests in _plan(rule.patterns)
            )
        ]
