"""SL112 training-never-seeds: a training program that seeds nothing on any path."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, callee_name, is_literal
from seedlint.analysis.branches import exits_before
from seedlint.analysis.context import FileContext
from seedlint.analysis.edits import Editor
from seedlint.analysis.environment import string_value
from seedlint.analysis.index import ModuleIndex, Scope, Statement, is_main_guard
from seedlint.analysis.initialisation import initialises_randomly
from seedlint.analysis.modules import shown_name
from seedlint.analysis.programs import (
    imported_elsewhere,
    optimizer_steps,
    reached_calls,
    seed_options,
    seeded_by_imports,
    training_calls,
    trains_elsewhere,
)
from seedlint.analysis.walk import written
from seedlint.analysis.workers import WorkerCode
from seedlint.diagnostics import Applicability, Fix
from seedlint.files import is_test
from seedlint.gates import PROGRAM, TRAINER, UNSEEDED, Gate, contains_any
from seedlint.rules.base import Finding, Probe, Rule

# Functions that time or test a training step rather than train a model.
_BENCHMARK = re.compile(r"^_*(test|bench|profil|measure|time|speed)", re.IGNORECASE)
# Clocks a benchmark reads, and how many batches a timing loop runs at most.
_CLOCKS = frozenset({"time.time", "time.perf_counter", "time.monotonic", "time.process_time"})
_FEW_BATCHES = 20
# Functions that may load weights (`load_state_dict`, `load_network`, `load_pretrained_model`).
_LOADS_WEIGHTS = re.compile(
    r"^_*(load|restore|resume).*(state|model|net|weight|checkpoint|ckpt|pretrain)", re.IGNORECASE
)


class TrainingNeverSeeds(Rule):
    code = "SL112"
    name = "training-never-seeds"
    summary = (
        "A training program seeds nothing, so its initial weights, data order and dropout change "
        "from run to run"
    )
    fix_availability = "unsafe"
    patterns = (
        (b"backward", b"step", UNSEEDED, PROGRAM),
        (b"autograd", b"step", UNSEEDED, PROGRAM),
        (b".fit(", UNSEEDED, PROGRAM),
        (
            b"backward",
            b".grad",
            UNSEEDED,
            PROGRAM,
        ),  # a hand-written step: `p.data.sub_(lr * p.grad)`
        (b"train", UNSEEDED, PROGRAM),  # a trainer of another module (`Runner(args).train()`)
        (b".run(", UNSEEDED, PROGRAM),  # `run3d.run(model, ..)`
        (b".learn(", UNSEEDED, PROGRAM),  # an RL agent of another module (`agent.learn()`)
        (b".evaluate(", UNSEEDED, PROGRAM),  # an evaluator that trains a probe
        # a program handing its optimizer to an update of another module (`ppo_update(policy,
        # opt, ..)`, `opt = optim.Adam(..)`, `from torch.optim import Adam`)
        (b"_update(", UNSEEDED, PROGRAM),
        (b"optim.", UNSEEDED, PROGRAM),
        (b"optim import", UNSEEDED, PROGRAM),
    )
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        if is_test(Path(context.path), context.source.text) or _seeds(context):
            return
        training, steps = (
            [
                call
                for call in calls
                if not exits_before(context.index, context.index.statement_of[call])
            ]
            for calls in (training_calls(context), optimizer_steps(context))
        )
        run = context.run_by_module_body([*training, *steps])
        trains = [call for call in training if call in run]
        if trains and not any(call in run for call in steps):
            # no optimizer step of its own: the training is a trainer's `fit`, shown first
            trains = [call for call in trains if _fits([call])] + trains
        if not trains or not (any(call in run for call in steps) or _fits(trains)):
            # the training may run in another module of the project (`Runner(args).train()`)
            calls = [call for call, _ in context.index.all_calls]
            elsewhere = trains_elsewhere(context)
            if elsewhere is None:
                return  # a module whose body trains nothing: a library, inference, a benchmark
            # `Runner(args).train()`: the call made on what the found call builds
            trains = [
                next(
                    (
                        call
                        for call in calls
                        if isinstance(call.func, cst.Attribute) and call.func.value is elsewhere
                    ),
                    elsewhere,
                )
            ]
        changes, generators = _what_changes(context)
        if not changes or _benchmarks(context, trains) or imported_elsewhere(context):
            return  # nothing random seen; a benchmark; a library module's demo block
        if _hands_on_seeding(context):
            return  # `mp.spawn(train_worker, ..)`: the process it starts seeds itself
        shown = next(  # the training, not a timing loop before it
            (
                call
                for call in trains
                if not _in_timed_few_batches(context, context.index.statement_of[call])
            ),
            trains[0],
        )
        yield Finding(
            shown,
            f"This program trains (`{_short(context, shown)}`) "
            "but seeds nothing on any path: what it draws changes from run to run "
            f"({_listed(changes)}), so no two runs give the same model",
            _fix(context),
            help="Seed at the start of the program, with its own seed option if it has one "
            "(else choose a fixed value)",
            generators=generators,
        )


def _short(context: FileContext, call: cst.Call) -> str:
    """A call as a message shows it: `loss.backward()`, `Runner(...).train()`."""
    func = call.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
        inner = context.code(func.value.func)
        callee = f"{inner}(...).{func.attr.value}"
    else:
        callee = context.code(func)
    if "\n" in callee:
        callee = callee_name(func)
    return f"{callee}({'...' if call.args else ''})"


def _fits(trains: list[cst.Call]) -> bool:
    """Whether one of the training calls is a Lightning trainer's `fit` (which steps the
    optimizers itself)."""
    return any(
        isinstance(call.func, cst.Attribute) and call.func.attr.value == "fit" for call in trains
    )


def _benchmarks(context: FileContext, trains: list[cst.Call]) -> bool:
    """Whether every training call is in a function named as a benchmark or a test (`test_NSA`,
    `benchmark_step`, `profile_memory`), or in a loop that reads a clock and stops itself after a
    few batches (`if ii == 3: break`): it times the step, its result is not a model."""
    index = context.index
    for call in trains:
        function = index.function_of_scope.get(index.statement_of[call].scope)
        if function is not None and _BENCHMARK.match(function.node.name.value):
            continue
        if not _in_timed_few_batches(context, index.statement_of[call]):
            return False
    return True


def _in_timed_few_batches(context: FileContext, statement: Statement) -> bool:
    """Whether a statement sits in a loop whose body reads a clock (`time.time()`) and breaks
    after a literal number of iterations of at most `_FEW_BATCHES` (`if ii == 3: break`)."""
    index = context.index
    loop = index.enclosing(statement)
    while loop is not None and not isinstance(loop.node, (cst.For, cst.FunctionDef)):
        loop = index.enclosing(loop)
    if loop is None or not isinstance(loop.node, cst.For):
        return False
    body = [inner for block in index.blocks_of(loop.node) for inner in block]
    clock = any(
        index.qualify(inner.func, inner_statement.scope) in _CLOCKS
        for inner_statement in body
        for inner in inner_statement.calls
    )
    return clock and any(_breaks_after_few(inner.node) for inner in body)


def _breaks_after_few(node: cst.CSTNode) -> bool:
    """`if ii == 3: break` (or `>=`, `>`): a stop after a literal, small number of iterations."""
    if not (isinstance(node, cst.If) and isinstance(node.body, cst.IndentedBlock)):
        return False
    breaks = any(
        isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Break)
        for line in node.body.body
    )
    test = node.test
    return (
        breaks
        and isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(
            test.comparisons[0].operator, (cst.Equal, cst.GreaterThan, cst.GreaterThanEqual)
        )
        and isinstance(test.comparisons[0].comparator, cst.Integer)
        and int(test.comparisons[0].comparator.value) <= _FEW_BATCHES
    )


def _seeds(context: FileContext) -> bool:
    """Whether the program may seed on some path: a seeding spelling in its text (a seeding call,
    a helper named like one, a project helper that seeds), a seeding flow, a framework runner that
    seeds from its configuration, or a project module it imports that seeds on import. Not the
    seeding of a function only DataLoader workers run (`worker_init_fn=seed_worker`)."""
    data = context.source.text.encode()
    gate = Gate(context.settings.seed_functions, context.settings.project_gates)
    # functions whose own seeding does not count: what they seed counts where the program's flow
    # runs them, if at all
    apart = _worker_init_scopes(context) + _run_only_by_cells(context)
    if any(flow.root is None or flow.root.scope not in apart for flow in context.seeding_flows):
        return True
    if gate.seeds_beyond_trainers(data) and _spelled_seeding(context, gate, apart):
        return True
    if context.program is not None and gate.seeds_beyond_trainers(_unparsed_cells(context)):
        return True  # a seeding spelled in a cell that does not parse: unknown
    return any(context.calls_to(*catalog.SEEDING_RUNNERS)) or bool(seeded_by_imports(context))


def _hands_on_seeding(context: FileContext) -> bool:
    """Whether the program hands a function of another project module that seeds to a call that
    runs it (`mp.spawn(train_worker, ..)`, `Engine(step)`), other than as a loader's
    `worker_init_fn`: what it starts is seeded there."""
    project = context.settings.project
    if project is None:
        return False
    index = context.index
    for call, scope in index.all_calls:
        for arg in call.args:
            keyword = arg.keyword.value if arg.keyword is not None else ""
            if keyword == "worker_init_fn" or not isinstance(arg.value, (cst.Name, cst.Attribute)):
                continue
            qualified = index.qualify(arg.value, scope)
            if qualified is None:
                continue
            summary = project.summary(qualified)
            if summary is not None and summary.seeds:
                return True
    return False


def _unparsed_cells(context: FileContext) -> bytes:
    """The text of a notebook's code cells that do not parse (left out of its program)."""
    program = context.program
    cells = program.notebook.cells
    return "".join(cells[number - 1].source for number in sorted(program.left_out)).encode()


def _run_only_by_cells(context: FileContext) -> list[Scope]:
    """The scopes of a notebook's functions that run only where its cells call them by name
    (never handed on): their seeding counts where the notebook's own flow runs them, with the
    values the calls pass (`generate(model, seed=None)` never runs its `if seed is not None:
    torch.manual_seed(..)`)."""
    index = context.index
    if context.program is None:
        return []
    calls = Counter(
        function
        for call, scope in index.all_calls
        if (function := index.resolve_local_call(call, scope)) is not None
    )
    return [
        function.scope
        for function in index.functions.values()
        if function.owner_class is None
        and function.scope.parent is index.module_scope
        and calls[function] > 0
        # its `def`, then only calls
        and len(re.findall(rf"\b{re.escape(function.node.name.value)}\b", context.source.text))
        == calls[function] + 1
    ]


def _spelled_seeding(context: FileContext, gate: Gate, apart: list[Scope]) -> bool:
    """Whether a call spelled like seeding may seed a global generator: one the analysis cannot
    resolve (`self.set_seed()`, a helper of a module not found), or one of the project or of a
    library it does not know. Not a call into a library it knows that seeds no global generator
    (`torch.Generator().manual_seed(42)` for one split, `model.train()` although a project script
    beside it defines a seeding `train`, `env.action_space.seed(0)`)."""
    index = context.index
    spellings = tuple(spelling for spelling in gate.spellings if spelling != TRAINER)
    for call, scope in index.all_calls:
        if any(scope.within(function) for function in apart):
            continue  # a loader worker's `random.seed(worker_id)`, a cell-only helper's seeding
        spelled = f"{written(call.func)}(".encode()
        if not gate.seeds_beyond_trainers(spelled):
            continue
        if not contains_any(spelled, spellings) and _of_an_object(index, call, scope):
            continue  # `model.train()`: only named like a project helper (a script's `train`)
        qualified = index.qualify(call.func, scope)
        if qualified is None:
            return True
        if index.defines(qualified) or index.resolve_local_call(call, scope):
            continue  # a function of this module: the seeding flows tell whether it seeds
        project = context.settings.project
        known = qualified.partition(".")[0] in catalog.KNOWN_LIBRARIES or (
            project is not None and project.has_module_of(qualified)
        )
        effect = context.classifier.seeding_effect(call, scope)
        if not known or (effect is not None and effect.kind in ("seed", "reseed")):
            return True
    return False


def _worker_init_scopes(context: FileContext) -> list[Scope]:
    """The scopes of the module's functions that only DataLoader workers run: handed to
    `worker_init_fn=` and called nowhere in the module."""
    if "worker_init_fn" not in context.source.text:
        return []
    index = context.index
    workers = WorkerCode(index)
    found = []
    for expr, scope in workers.loader_worker_init_fns():
        code = workers.worker_init_fn(expr, scope)
        function = code.function if code is not None else None
        if function is not None and not any(
            index.resolve_local_call(call, where) is function for call, where in index.all_calls
        ):
            found.append(function.scope)
    return found


def _of_an_object(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """Whether a call is a method of an object, not a function of a module (`model.train()`,
    `get_peft_model(..).train()`; not `utils.train(..)`)."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    receiver = index.qualify(func.value, scope)
    return receiver is None or "()" in receiver


def _what_changes(context: FileContext) -> tuple[list[str], frozenset[str]]:
    """What the program's run draws, in words (only what was seen), and the generators behind
    it."""
    index = context.index
    changes: dict[str, None] = {}
    draws: dict[str, None] = {}  # other draws, by what they call
    generators: set[str] = set()
    for event in context.program_flow.events:
        if event.kind != "draw":
            continue
        generators |= catalog.cuda_as_one(event.generators)
        last = event.effect.qualified.rsplit(".", 1)[-1]
        if event.effect.qualified.startswith("torch.nn.") or last[:1].isupper():
            changes["initial weights"] = None
        else:
            draws[f"`{shown_name(event.effect.qualified)}`"] = None
    candidates: dict[cst.Call, str] = {}
    for call, scope in index.all_calls:
        change = _change(call, index.qualify(call.func, scope) or "")
        if change is not None and change != "initial weights":  # the flow's draws tell those
            candidates[call] = change
    for call in context.run_by_module_body(candidates):
        changes[candidates[call]] = None
        generators.add(catalog.TORCH_CPU)
    for change in _built_by_callees(context):
        changes[change] = None
        generators.add(catalog.TORCH_CPU)
    if not changes and not draws:
        changes = dict.fromkeys(_changes_elsewhere(context))
        if changes:
            generators.add(catalog.TORCH_CPU)
    order = ("initial weights", "data order", "dropout", "augmentations")
    ranked = sorted(changes, key=order.index)
    if draws:
        ranked.append(f"draws of {_listed(list(draws)[:3])}")
    return ranked, frozenset(generators)


def _changes_elsewhere(context: FileContext) -> list[str]:
    """What changes in the project code of other modules that the program runs: the layers its
    builders make (`model = create_model(opt)` → `nn.Conv2d(..)`), the loaders they return. Not
    the initial weights where a load is seen anywhere on the way (they may be overwritten)."""
    index = context.index
    changes: dict[str, None] = {}
    loads = any(_loads(call, index.qualify(call.func, scope)) for call, scope in index.all_calls)
    for module, call, scope in reached_calls(context):
        qualified = module.qualify(call.func, scope)
        loads = loads or _loads(call, qualified)
        change = _change(call, qualified or "")
        if change is not None:
            changes[change] = None
    if loads:
        changes.pop("initial weights", None)
    return list(changes)


def _loads(call: cst.Call, qualified: str | None) -> bool:
    """Whether a call may load weights (`torch.load`, `model.load_state_dict(..)`,
    `Net.from_pretrained(..)`, a project's `load_network(..)`)."""
    if qualified == "torch.load":
        return True
    name = (qualified or callee_name(call.func)).rsplit(".", 1)[-1]
    return bool(_LOADS_WEIGHTS.match(name)) or name in catalog.LOADING_CONSTRUCTORS


def _built_by_callees(context: FileContext) -> list[str]:
    """What changes in the model classes of this module that the program hands to a call to build
    (`NeuralNetClassifier(Net, ..)` of skorch, a wrapper's `LitMF(MatrixFactorization, ..)`): the
    layers and dropout the class makes."""
    index = context.index
    found = []
    for call, scope in index.all_calls:
        if call not in context.calls_run or (index.qualify(call.func, scope) or "").startswith(
            "builtins."
        ):
            continue
        for arg in call.args:
            qualified = index.qualify(arg.value, scope) if isinstance(arg.value, cst.Name) else None
            cls = index.classes.get(qualified or "")
            if cls is None or not index.subclasses_of(cls, catalog.NN_MODULES):
                continue
            found += [
                change
                for inner_call, inner in index.all_calls
                if inner.within(cls.scope)
                and (change := _change(inner_call, index.qualify(inner_call.func, inner) or ""))
                is not None
            ]
    return found


def _change(call: cst.Call, qualified: str) -> str | None:
    """What a call makes change from run to run when nothing seeds, in words: a layer's initial
    weights, a shuffling loader's data order, dropout, a random augmentation."""
    last = qualified.rsplit(".", 1)[-1]
    if (
        qualified.startswith("torch.nn.")
        and (last in catalog.RANDOM_INIT_MODULES or last in catalog.TORCH_INIT_DRAWS)
    ) or initialises_randomly(call, qualified):
        return "initial weights"
    if qualified in catalog.DATA_LOADERS and _may_be_true(argument(call, "shuffle", 2)):
        return "data order"
    if qualified in catalog.SHUFFLING_CALLS:
        return "data order"
    if qualified in catalog.DROPOUT_CALLS:
        return "dropout"
    if qualified.startswith(catalog.AUGMENTATION_MODULES) and last.startswith("Random"):
        return "augmentations"
    return None


def _may_be_true(value: cst.BaseExpression | None) -> bool:
    """`True`, or a conditional expression one of whose sides is (`False if distributed else
    True`: the sampler shuffles where the program is not distributed)."""
    if isinstance(value, cst.IfExp):
        return _may_be_true(value.body) or _may_be_true(value.orelse)
    if (
        isinstance(value, cst.UnaryOperation)
        and isinstance(value.operator, cst.Not)
        and isinstance(value.expression, (cst.Name, cst.Attribute))
    ):
        return True  # `not opt.serial_batches`: an option's negation may be true
    return is_literal(value, "True")


def _listed(changes: list[str]) -> str:
    return changes[0] if len(changes) == 1 else f"{', '.join(changes[:-1])} and {changes[-1]}"


def _fix(context: FileContext) -> Fix | None:
    """Seed torch (and `random` and NumPy where the module imports them) at the start: after the
    program parses its seed option, else first in its `__main__` block, else after its imports."""
    editor = Editor(context.source, context.layout, lambda: context.index)
    option = _seed_option(context)
    value = option[1] if option is not None else "0"
    bindings = context.index.module_scope.bindings
    seeding, edits = [], []
    for qualified, module in (
        ("torch.manual_seed", "torch"),
        ("random.seed", "random"),
        ("numpy.random.seed", "numpy"),
    ):
        if module != "torch" and module not in bindings.values():
            continue
        spelled, import_edit = editor.reference(qualified)
        seeding.append(f"{spelled}({value})")
        if import_edit is not None:
            edits.append(import_edit)
    code = "\n".join(seeding)
    if option is not None:
        edits.append(editor.insert_after(option[0], code))
    else:
        start = _start(context)
        if start is None:
            return None
        inserted = editor.insert_before(start, code)
        if inserted is None:
            return None
        edits.append(inserted)
    return Fix(
        f"Seed at the start of the program with `{value}`"
        + ("" if option is not None else " (choose your own value)"),
        Applicability.UNSAFE,
        tuple(sorted(edits, key=lambda edit: edit.start)),
    )


def _seed_option(context: FileContext) -> tuple[Statement, str] | None:
    """The statement that parses the program's options and how to read its seed option
    (`args.seed`), when it has one and parses them into a name."""
    index = context.index
    dests = {dest for _, _, dest in seed_options(context)}
    if len(dests) != 1:
        return None
    for call, _ in context.calls_by_name("parse_args"):
        statement = index.statement_of[call]
        node = statement.node
        if (
            isinstance(node, cst.Assign)
            and node.value is call
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
        ):
            return statement, f"{node.targets[0].target.value}.{dests.pop()}"
    return None


def _start(context: FileContext) -> Statement | None:
    """The first statement of the `__main__` block, else the module's first statement after its
    imports and docstring."""
    index = context.index
    statements = index.statements.get(context.module, [])
    for statement in statements:
        if is_main_guard(statement.node):
            block = index.statements.get(statement.node.body, [])
            return block[0] if block else None
    for position, statement in enumerate(statements):
        node = statement.node
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            continue
        if position == 0 and isinstance(node, cst.Expr) and string_value(node.value):
            continue  # the docstring
        return statement
    return None
