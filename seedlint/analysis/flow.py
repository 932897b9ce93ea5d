"""Execution order and seeding state.

A flow is what runs from one entry point: the module body, or a function nothing in the
module calls (a library entry point, a method called from elsewhere). Statements run in
order; `if`/`else` branches, loops and `try` bodies are all taken once; calls to functions,
classes (their `__init__`) and methods defined in the module are followed, so a seeding call
inside `set_seed()` happens where `set_seed()` is called. The result is the ordered list of
seeding calls and random draws of that flow, each with the trail of statements and calls
that reached it. Draws that only initialise weights which are thrown away (built on the meta
device, or loaded over before use: see `initialisation`) are left out.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TypeVar

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.access_paths import read_paths
from seedlint.analysis.arguments import (
    argument,
    callee_name,
    is_cuda_string,
    is_literal,
    is_none,
    names_a_seed,
    seed_argument,
    unseeded,
)
from seedlint.analysis.branches import literal, parameter_values, test_value
from seedlint.analysis.events import REACHED, Effect, Event, Flow, Project, Step
from seedlint.analysis.index import (
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    all_parameters,
    defining_scope,
    is_main_guard,
)
from seedlint.analysis.initialisation import (
    builds_on_meta,
    discards_draws,
    initialises_randomly,
    loading_constructor,
)
from seedlint.analysis.libraries import MAP_STYLE, hf_dataset
from seedlint.analysis.walk import iter_descendants, written
from seedlint.gates import MAY_SEED, SUBCLASSES_A_TRAINER

_MAX_CALL_DEPTH = 12
_NO_DEFAULT = object()
# The names of seeding helpers: `set_seed`, `set_random_seed`, `init_seeds`, `fix_seed`,
# `seed_everything`, `seed_all`.
# not a bare `seed`: `rng.seed(0)`, `env.seed(0)` seed one object
_SEEDING_HELPER_NAME = re.compile(
    r"^(?:(?:set|init|initialize|initialise|fix|setup|reset|make|enable|ensure)_(?:[a-z0-9]+_)*"
    r"(?:seeds?|randomness|determinism|deterministic|reproducib[a-z]*)(?:_[a-z0-9]+)*"
    r"|seed_(?!worker)[a-z0-9_]+)$"
)
# Where seeding helpers are known (the catalog's libraries) or none are (the standard library).
_KNOWN_ROOTS = (
    frozenset(sys.stdlib_module_names)
    | {"builtins"}
    | {name.partition(".")[0] for name in catalog.SEEDERS}
    # libraries whose `seed=` seeds only what it is given (a shuffle, an environment, a split, a
    # graph layout's own `RandomState`, a sampler's own generator)
    | {"sklearn", "datasets", "gym", "gymnasium", "webdataset", "scipy", "pandas", "networkx"}
    | {"optuna"}
    # experiment loggers: a seed handed to them is recorded (`mlflow.log_param("seed", seed)`)
    | {"wandb", "mlflow", "neptune", "comet_ml", "clearml", "tensorboardX", "aim", "swanlab"}
)
T = TypeVar("T")
# Calls that save generators' states, and that put them back (a `with fork_rng():` saves on entry
# and restores on exit).
_STATE_CALLS = (
    ("save", {**catalog.STATE_SAVERS, **catalog.RNG_ISOLATORS}),
    ("restore", catalog.STATE_RESTORERS),
)


class EffectClassifier:
    """Decides what a call does to the global generators, from the facts in `catalog`."""

    def __init__(
        self,
        index: ModuleIndex,
        seed_functions: Mapping[str, frozenset[str]],
        project: Project | None = None,
    ) -> None:
        self.index = index
        self.seed_functions = seed_functions
        self.project = project
        # by call and the project's gate: (effect, the modules read to decide it)
        self._cache: dict = {}

    def effect(self, call: cst.Call, scope: Scope) -> Effect | None:
        key = (call, self.project.gate if self.project is not None else None)
        return remembered(self.project, self._cache, key, lambda: self._classify(call, scope))

    def seeding_effect(self, call: cst.Call, scope: Scope) -> Effect | None:
        """The call's effect where only its seeding matters: other modules are read only where they
        can seed (their draws are left out unless seen already)."""
        if self.project is None:
            return self.effect(call, scope)
        with self.project.seeding_only():
            return self.effect(call, scope)

    def _classify(self, call: cst.Call, scope: Scope) -> Effect | None:
        qualified = self.index.qualify(call.func, scope)
        # a method of an object whose name is not known (`load_dataset(..)["train"]`)
        if qualified is None:
            return (
                self._seeding_method(call, scope)
                or self._device_generator_reseed(call, scope)
                or self._tensor_method_draw(call)
                or self._dataset_draw(call, scope)
                or self._picked_from_table(call, scope)
            )
        if qualified in self.seed_functions:
            arg = seed_argument(call)
            return Effect(
                "seed",
                qualified,
                self.seed_functions[qualified],
                arg,
                not self.is_nondeterministic(arg, scope),
            )
        seeder = catalog.SEEDERS.get(qualified) or self._seeding_subclass(qualified, scope)
        if seeder is not None:
            arg = (
                seed_argument(call, seeder.seed_keyword)
                if seeder.seed_keyword is not None
                else None
            )
            random_seed = (
                seeder.none_is_random
                and is_none(arg)
                and not (arg is None and seeder.fixed_default)
            ) or self.is_nondeterministic(arg, scope)
            return Effect("seed", qualified, seeder.seeds, arg, not random_seed)
        if qualified in catalog.RANDOM_RESEEDERS:
            return Effect("reseed", qualified, catalog.RANDOM_RESEEDERS[qualified], None, False)
        for kind, table in _STATE_CALLS:
            if qualified in table:
                return Effect(kind, qualified, table[qualified])
        return (
            self._draw(call, qualified, scope)
            or self._project_effect(call, qualified, scope)
            or self._inherited_effect(call, qualified, scope)
            or self._assumed_seeding(call, qualified, scope)
        )

    def _picked_from_table(self, call: cst.Call, scope: Scope) -> Effect | None:
        """`model_dict[args.model](..)`: a class picked by a key from a dict literal the call's
        scope binds. It draws when every entry draws, whichever the key picks (an entry that does
        not, or cannot be read, makes it unknown)."""
        func = call.func
        if not (isinstance(func, cst.Subscript) and isinstance(func.value, cst.Name)):
            return None
        table = self.index.lookup(func.value.value, scope)
        if not isinstance(table, cst.Dict) or not table.elements:
            return None
        where = defining_scope(func.value.value, scope) or scope
        generators: set[str] = set()
        picked = None
        for element in table.elements:
            if not isinstance(element, cst.DictElement):
                return None
            effect = self._classify(call.with_changes(func=element.value), where)
            if effect is None or effect.kind != "draw":
                return None
            generators |= effect.generators
            picked = picked or effect
        assert picked is not None
        return replace(picked, generators=frozenset(generators))

    def _inherited_effect(self, call: cst.Call, qualified: str, scope: Scope) -> Effect | None:
        """`super().__init__(..)` of a class whose base is a class of another project module: the
        seeding that base's constructor does (`BaseModel.__init__` calling
        `torch.manual_seed(seed)`), else what it draws, with the methods the class overrides
        (`self.model = self._build_model()`)."""
        owner = scope.owner_class
        if qualified != "builtins.super().__init__" or owner is None or self.project is None:
            return None
        for base in owner.bases:
            if base in self.index.classes:
                continue  # a class of this module: walked as a call of the module
            with self.project.seeding_only():  # only its seeding is wanted: read modules that seed
                effect = self._project_effect(call, base, scope)
            if effect is not None and effect.kind == "seed":
                return effect
            if self.project.gate != MAY_SEED:
                summary = self.project.constructor_summary(base, self.index, owner)
                if summary is not None and summary.draws:
                    return Effect("draw", base, summary.draws, summarised=True)
        return None

    def _seeding_subclass(self, qualified: str, scope: Scope) -> catalog.Seeder | None:
        """A class deriving from a library class whose constructor seeds (`class
        MyTrainer(Trainer)`), built without an `__init__` of its own, or its `__init__` calling
        `super().__init__(..)`."""
        index = self.index
        if qualified == "builtins.super().__init__":
            derives = scope.owner_class is not None and index.subclasses_of(
                scope.owner_class, catalog.SEEDING_CLASSES
            )
        elif qualified in index.classes:  # with an `__init__` of its own, that is walked instead
            cls = index.classes[qualified]
            derives = index.find_method(cls, "__init__") is None and index.subclasses_of(
                cls, catalog.SEEDING_CLASSES
            )
        # a class of another project module, named like a trainer (as the seeding gate `Trainer(`
        # asks)
        else:
            derives = (
                self.project is not None
                and "Trainer" in qualified.rsplit(".", 1)[-1]
                and self.project.derives_from(
                    qualified, catalog.SEEDING_CLASSES, SUBCLASSES_A_TRAINER
                )
            )
        return catalog.SEEDING_CONSTRUCTOR if derives else None

    def _project_effect(self, call: cst.Call, qualified: str, scope: Scope) -> Effect | None:
        """What a call to a function of another project module does, from its summary."""
        if self.project is None or self.index.defines(qualified):
            return None
        summary = self.project.summary(qualified, call, self.index)
        if summary is None:
            return None
        if summary.seeds:
            arg, deterministic = None, True
            if summary.seed_parameter is not None:
                name, position = summary.seed_parameter
                arg = argument(call, name, position)
                if arg is None and any(
                    a.star == "**" or a.star == "*" and position is not None for a in call.args
                ):
                    # `run(method, **kwargs)`: the seed may be in what is expanded, unseen
                    return Effect("seed", qualified, summary.seeds, None, True, True, True)
                if arg is None and self._seeds_only_when_given(qualified, name):
                    # `if seed is not None: set_seed(seed)`: left out, it leaves them as they are
                    return (
                        Effect("draw", qualified, summary.draws, summarised=True)
                        if (summary.draws)
                        else None
                    )
                deterministic = not (
                    self.is_nondeterministic(arg, scope)
                    or arg is None
                    and self._seed_left_to_chance(qualified, name)
                )
            return Effect("seed", qualified, summary.seeds, arg, deterministic, True)
        return Effect("draw", qualified, summary.draws, summarised=True)

    def _seeds_only_when_given(self, qualified: str, parameter: str) -> bool:
        """Whether a project helper seeds only under a test that its seed parameter's default
        rules out (`seed=None`, then `if seed is not None: set_seed(seed)`)."""
        found = self.project.function(qualified, MAY_SEED) if self.project is not None else None
        if found is None:
            return False
        index, function = found
        default = next(
            (
                literal(p.default)
                for p in all_parameters(function.node)
                if p.name.value == parameter
            ),
            _NO_DEFAULT,
        )
        if default is _NO_DEFAULT:
            return False
        known = {function.scope: {parameter: default}}
        seeds = {True: False, False: False}  # ruled out by the default -> a seeding call seen
        builder = self.project.builder(index)
        seeding = set(builder.seeding_functions())

        def seeds_by_itself(call: cst.Call, scope: Scope) -> bool:
            effect = builder.classifier.seeding_effect(call, scope)
            if effect is not None:
                return effect.kind == "seed"
            return index.resolve_local_call(call, scope) in seeding  # a helper of its module

        pending = [(index.body_of(function), False)]
        while pending:
            block, ruled_out = pending.pop()
            for statement in block:
                if any(seeds_by_itself(call, statement.scope) for call in statement.calls):
                    seeds[ruled_out] = True
                if isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
                    continue
                value = (
                    test_value(statement.node.test, statement.scope, known)
                    if isinstance(statement.node, cst.If)
                    else None
                )
                for position, inner in enumerate(index.blocks_of(statement.node)):
                    side = position == 0
                    pending.append((inner, ruled_out or (value is not None and value != side)))
        return seeds[True] and not seeds[False]

    def _seed_left_to_chance(self, qualified: str, parameter: str) -> bool:
        """Whether a project helper called without its seed parameter seeds at random: the
        parameter defaults to None, and the helper never replaces it with anything but a draw or a
        value that differs on every run (`if seed is None: seed = random.randint(0, 2**32)`)."""
        found = self.project.function(qualified, MAY_SEED) if self.project is not None else None
        if found is None:
            return False
        index, function = found
        default = next(
            (p.default for p in all_parameters(function.node) if p.name.value == parameter), None
        )
        if not is_none(default) or default is None or _records(index, function, parameter):
            return False
        for node in iter_descendants(function.node.body):
            if (
                isinstance(node, cst.Assign)
                and any(
                    isinstance(target.target, cst.Name) and target.target.value == parameter
                    for target in node.targets
                )
                and not _varies(index, node.value, function.scope)
            ):
                return False
        return True

    def _assumed_seeding(self, call: cst.Call, qualified: str, scope: Scope) -> Effect | None:
        """A function imported from a module that is neither the project's nor a library seedlint
        knows, named like a seeding helper (`from common.utils import set_seed`, then
        `set_seed(0)`; `set_randomness(seed)`) or given a seed (a framework's launcher's `seed=`,
        `init_env(args.seed)`): it may seed every generator, so the code it may seed is not
        reported as unseeded."""
        module, _, name = qualified.rpartition(".")
        if (
            not module
            or "()" in module
            or module.partition(".")[0] in _KNOWN_ROOTS
            or not (
                _SEEDING_HELPER_NAME.match(name)
                or any(names_a_seed(arg) and not is_none(arg.value) for arg in call.args)
            )
            or module == self.index.module_name
            or self.project is not None
            and self.project.has_module_of(qualified)
        ):
            return None
        arg = next(
            (arg.value for arg in call.args if names_a_seed(arg) and not is_none(arg.value)),
            seed_argument(call),
        )
        return Effect(
            "seed",
            qualified,
            catalog.EVERYTHING,
            arg,
            not self.is_nondeterministic(arg, scope),
            assumed=True,
        )

    def _device_generator_reseed(self, call: cst.Call, scope: Scope) -> Effect | None:
        """`torch.cuda.default_generators[i].seed()` (or through a name bound to one): reseeds that
        device's generator with a nondeterministic value."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "seed" and not call.args):
            return None
        receiver = func.value
        if isinstance(receiver, cst.Name):
            values = self.index.bound_values(receiver.value, scope)
            receiver = values[0] if len(values) == 1 else None
        if isinstance(receiver, cst.Subscript) and (
            self.index.qualify(receiver.value, scope) in catalog.DEVICE_GENERATORS
        ):
            return Effect(
                "reseed",
                f"{catalog.DEVICE_GENERATORS[0]}[].seed",
                frozenset({catalog.CUDA_CURRENT}),
                None,
                False,
            )
        return None

    def _seeding_method(self, call: cst.Call, scope: Scope) -> Effect | None:
        """A method named like a seeding helper on an object of unknown type
        (`fabric.seed_everything(seed)` with `fabric` a parameter): taken to seed every generator,
        as an imported helper seedlint cannot read is."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not _SEEDING_HELPER_NAME.match(func.attr.value):
            return None
        arg = seed_argument(call)
        return Effect(
            "seed",
            written(func),
            catalog.EVERYTHING,
            arg,
            not self.is_nondeterministic(arg, scope),
            assumed=True,
        )

    def _draw(self, call: cst.Call, qualified: str, scope: Scope) -> Effect | None:
        if argument(call, "generator", None) is not None:
            return None
        module, _, name = qualified.rpartition(".")
        if (
            qualified in catalog.TORCH_DRAW_FUNCTIONS
            or (module == "torch.nn.init" and name in catalog.TORCH_INIT_DRAWS)
            or (module in ("torch.nn", "torch.nn.modules") and name in catalog.RANDOM_INIT_MODULES)
        ):
            if builds_on_meta(call):
                return None
            device = argument(call, "device", None)
            on_cuda = device is not None and is_cuda_string(device)
            return Effect(
                "draw", qualified, frozenset({catalog.CUDA if on_cuda else catalog.TORCH_CPU})
            )
        if initialises_randomly(call, qualified):
            return Effect("draw", qualified, frozenset({catalog.TORCH_CPU}))
        if name in catalog.TENSOR_DRAW_METHODS and "()" in module:  # `torch.empty(3).normal_()`
            return Effect("draw", qualified, frozenset({catalog.TORCH_CPU}))
        if module == "numpy.random" and name not in catalog.NUMPY_NON_DRAWS:
            return Effect("draw", qualified, frozenset({catalog.NUMPY}))
        if qualified in catalog.NUMPY_GLOBAL_CALLS and self._unseeded(
            call, catalog.NUMPY_GLOBAL_CALLS[qualified]
        ):
            return Effect("draw", qualified, frozenset({catalog.NUMPY}))
        splitter = (
            call.func.value if name == "split" and isinstance(call.func, cst.Attribute) else None
        )
        if splitter is not None and self._shuffling_splitter(splitter, scope):
            return Effect("draw", qualified, frozenset({catalog.NUMPY}))
        if qualified in catalog.SKLEARN_CV_CALLS and self._shuffling_splitter(
            argument(call, "cv", None), scope
        ):
            # it splits with the splitter it is given
            return Effect("draw", qualified, frozenset({catalog.NUMPY}))
        search = call.func.value if name == "fit" and isinstance(call.func, cst.Attribute) else None
        if search is not None and self._unseeded_search(search, scope):
            return Effect("draw", qualified, frozenset({catalog.NUMPY}))
        if module == "random" and name in catalog.PYTHON_RANDOM_DRAWS:
            return Effect("draw", qualified, frozenset({catalog.PYTHON_RANDOM}))
        return self._dataset_draw(call, scope)

    def _dataset_draw(self, call: cst.Call, scope: Scope) -> Effect | None:
        """A Hugging Face dataset's `shuffle()`/`train_test_split()` without a seed: a NumPy global
        draw."""
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in catalog.HF_DATASET_DRAWS:
            return None
        if (
            not self._unseeded(call, catalog.HF_DATASET_DRAWS[func.attr.value])
            or hf_dataset(self.index, func.value, scope) != MAP_STYLE
        ):
            return None
        return Effect("draw", f"datasets.Dataset.{func.attr.value}", frozenset({catalog.NUMPY}))

    def _sklearn_object(
        self, expr: cst.BaseExpression | None, scope: Scope, classes: Mapping[str, bool]
    ) -> tuple[cst.Call, bool] | None:
        """The scikit-learn constructor call an expression is (or a name bound once to), when it
        builds one of `classes`, with the class's entry there."""
        if isinstance(expr, cst.Name):
            values = self.index.bound_values(expr.value, scope)
            expr = values[0] if len(values) == 1 else None
        if not isinstance(expr, cst.Call):
            return None
        module, _, name = (self.index.qualify(expr.func, scope) or "").rpartition(".")
        if module not in catalog.SKLEARN_SPLITTER_MODULES or name not in classes:
            return None
        return expr, classes[name]

    def _shuffling_splitter(self, splitter: cst.BaseExpression | None, scope: Scope) -> bool:
        """Whether an expression is a scikit-learn splitter built to shuffle without `random_state`
        (its `split()` then shuffles with NumPy's global generator): `KFold(5, shuffle=True)`, or a
        name bound to one."""
        built = self._sklearn_object(splitter, scope, catalog.SKLEARN_SPLITTERS)
        if built is None:
            return False
        splitter, shuffles_on_request = built
        if shuffles_on_request and not is_literal(argument(splitter, "shuffle", None), "True"):
            return False
        return is_none(argument(splitter, "random_state", None))

    def _unseeded_search(self, search: cst.BaseExpression, scope: Scope) -> bool:
        """Whether a hyper-parameter search draws from NumPy's global generator when fitted: it
        samples its candidates without `random_state`, or splits with a shuffling splitter."""
        built = self._sklearn_object(search, scope, catalog.SKLEARN_SEARCHES)
        if built is None:
            return False
        search, samples = built
        return (
            samples and is_none(argument(search, "random_state", None))
        ) or self._shuffling_splitter(argument(search, "cv", None), scope)

    @staticmethod
    def _unseeded(call: cst.Call, seeding: tuple[tuple[str, int | None], ...]) -> bool:
        """Whether a shuffling or splitting call has none of its seeding arguments and is not told
        not to shuffle (`shuffle=False`)."""
        return not is_literal(argument(call, "shuffle", None), "False") and unseeded(call, seeding)

    def _tensor_method_draw(self, call: cst.Call) -> Effect | None:
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in catalog.TENSOR_DRAW_METHODS
            and argument(call, "generator", None) is None
        ):
            return Effect("draw", f"Tensor.{func.attr.value}", frozenset({catalog.TORCH_CPU}))
        return None

    def is_nondeterministic(
        self, expr: cst.BaseExpression | None, scope: Scope, depth: int = 0
    ) -> bool:
        """Whether a seed expression derives from the clock, the PID, uuid, os.urandom or
        secrets."""
        if expr is None or depth > 3:
            return False
        for node in (expr, *iter_descendants(expr)):
            if isinstance(node, cst.Call):
                source = self.index.qualify(node.func, scope)
                if source is not None and (
                    source in catalog.NONDETERMINISTIC_SOURCES
                    or source in catalog.RANDOM_SEED_VALUES
                    or source.startswith(catalog.NONDETERMINISTIC_MODULES)
                ):
                    return True
            elif isinstance(node, cst.Name):
                bound = self.index.lookup(node.value, scope)
                if isinstance(bound, cst.BaseExpression) and self.is_nondeterministic(
                    bound, scope, depth + 1
                ):
                    return True
        return False


# where a value drawn or read differs on every run unless seeded
_VARYING_MODULES = (*catalog.NONDETERMINISTIC_MODULES, "random.", "numpy.random.")


def _varies(index: ModuleIndex, expr: cst.BaseExpression, scope: Scope) -> bool:
    """Whether a value differs on every run: a draw from `random` or NumPy's global generator, the
    clock, the process ID, `os.urandom`, ..."""
    for node in (expr, *iter_descendants(expr)):
        if isinstance(node, cst.Call):
            source = index.qualify(node.func, scope) or ""
            if (
                source in catalog.NONDETERMINISTIC_SOURCES
                or source in catalog.RANDOM_SEED_VALUES
                or source.startswith(_VARYING_MODULES)
            ):
                return True
    return False


class FlowBuilder:
    """Walks a module's entry points in execution order and records their events.

    Only entry points that can reach a seeding call are walked: the others cannot make a
    flow that seeds, and no rule asks anything of them.
    """

    def __init__(
        self,
        index: ModuleIndex,
        classifier: EffectClassifier,
        watched: frozenset[cst.Call] = frozenset(),
        into_processes: bool = False,
    ) -> None:
        self.index = index
        self.classifier = classifier
        self.watched = (
            watched  # calls to record as "reach" events when they have no effect of their own
        )
        # walk into the functions the module starts in other processes (what the program runs,
        # not what it seeds there: seeding does not cross into a spawned process)
        self.into_processes = into_processes
        self._discarding: dict = {}  # steps through which draws only initialise weights never used
        self.memo: dict = {}  # what is computed once per module (its call graph, entries' sites)
        # While walking: the parameters' known values, by function scope, from the calls made
        # (`certain`) and from the entry point's defaults (`defaults`: a caller elsewhere may pass
        # others, so only the draws of a branch they rule out are left out, never its seeding).
        self._certain: dict[Scope, dict[str, object]] = {}
        self._defaults: dict[Scope, dict[str, object]] = {}
        # the subclass whose instance a walked method runs on, by the method's scope
        self._receivers: dict[Scope, ClassInfo] = {}

    @property
    def _call_graph(self) -> tuple[dict, dict]:
        """(seeds by itself, every function reachable) for the module body and each function."""
        return remembered(self.classifier.project, self.memo, "call graph", self._build_call_graph)

    def _build_call_graph(self) -> tuple[dict, dict]:
        callees: dict[FunctionInfo | None, set[FunctionInfo]] = {}
        seeds_here: dict[FunctionInfo | None, bool] = {}
        for owner in (None, *self.index.functions.values()):
            callees[owner], seeds_here[owner] = self._summary(owner)
        reach = {owner: self._closure(owner, callees) for owner in callees}
        return seeds_here, reach

    def seeding_functions(self) -> list[FunctionInfo]:
        """The functions of the module that seed, by themselves or through what they call."""
        seeds_here, reach = self._call_graph
        return [
            f
            for f in self.index.functions.values()
            if seeds_here[f] or any(seeds_here.get(g, False) for g in reach[f])
        ]

    def body_seeds(self) -> bool:
        """Whether the module body seeds, by itself or through the module's functions it calls
        (its `__main__` block included)."""
        seeds_here, reach = self._call_graph
        return seeds_here[None] or any(seeds_here.get(f, False) for f in reach[None])

    def roots(self) -> list[FunctionInfo | None]:
        """The entry points: the module body (None), and the functions nothing in the module
        calls (one of a group that call each other)."""
        _, reach = self._call_graph
        candidates = [f for f in self.index.functions.values() if f not in reach[None]]
        roots: list[FunctionInfo | None] = [None]
        for function in candidates:
            dominated = any(
                function in reach[other] and other not in reach[function]
                for other in candidates
                if other is not function
            )
            if not dominated:
                roots.append(function)
        return roots

    def build(self) -> list[Flow]:
        seeds_here, reach = self._call_graph
        return [
            self.walk(root)
            for root in self.roots()
            if seeds_here[root] or any(seeds_here.get(f, False) for f in reach[root])
        ]

    def reaching(self, calls: Iterable[cst.Call]) -> list[tuple[Flow, Event]]:
        """(flow, the call's event) for each entry point that runs one of `calls`, seeding or
        not."""
        watched = frozenset(calls)
        walker = FlowBuilder(self.index, self.classifier, watched)
        found = []
        for root in self.roots():
            flow = walker.walk(root)
            found += [(flow, event) for event in flow.events if event.call in watched]
        return found

    def _own_statements(self, owner: FunctionInfo | None) -> Iterator[Statement]:
        pending = (
            [self.index.statements.get(self.index.module, [])]
            if owner is None
            else [self.index.body_of(owner)]
        )
        while pending:
            for statement in pending.pop():
                yield statement
                if not isinstance(statement.node, cst.FunctionDef):
                    pending.extend(self.index.blocks_of(statement.node))

    def _summary(self, owner: FunctionInfo | None) -> tuple[set[FunctionInfo], bool]:
        """The module-local functions `owner` calls, and whether it seeds by itself."""
        called: set[FunctionInfo] = set()
        seeds = False
        for statement in self._own_statements(owner):
            for call in statement.calls:
                effect = self.classifier.seeding_effect(call, statement.scope)
                if effect is not None and effect.kind == "seed":
                    seeds = seeds or effect.deterministic
                    continue
                target = self.index.resolve_local_call(call, statement.scope)
                if target is not None:
                    called.add(target)
        return called, seeds

    @staticmethod
    def _closure(owner: FunctionInfo | None, callees: dict) -> set[FunctionInfo]:
        seen: set[FunctionInfo] = set()
        pending = list(callees[owner])
        while pending:
            function = pending.pop()
            if function not in seen:
                seen.add(function)
                pending.extend(callees.get(function, ()))
        return seen

    def _discards_draws(self, step: Step) -> bool:
        project = self.classifier.project
        return remembered(
            project, self._discarding, step, lambda: discards_draws(self.index, step, project)
        )

    def walk(self, root: FunctionInfo | None, known: dict[str, object] | None = None) -> Flow:
        """The events of one entry point (None: the module body), in execution order; with
        `known`, the root run with those values of its parameters (a call's literals)."""
        events: list[Event] = []
        statements = (
            self.index.body_of(root)
            if root is not None
            else self.index.statements.get(self.index.module, [])
        )
        saved = self._certain, self._defaults  # a walk can start inside another (a cycle)
        self._certain = {root.scope: known} if root is not None and known else {}
        self._defaults = {root.scope: parameter_values(self.index, root, None)} if root else {}
        try:
            self._walk_block(statements, (), events, {root} if root is not None else set())
        finally:
            self._certain, self._defaults = saved
        return Flow(root, without_undone_seeding(events))

    def _taken(self, statement: Statement) -> list[tuple[list[Statement], bool]]:
        """The blocks of a compound statement a walk enters, each with whether its draws are left
        out: an `if` whose test the known values decide enters only its side (by the entry
        point's defaults alone: both, the other side's draws left out)."""
        blocks = self.index.blocks_of(statement.node)
        if not isinstance(statement.node, cst.If):
            return [(block, False) for block in blocks]
        test, scope = statement.node.test, statement.scope
        certain = test_value(test, scope, self._certain)
        assumed = (
            certain
            if certain is not None or not self._defaults
            else test_value(test, scope, {**self._defaults, **self._certain})
        )
        taken = []
        for position, block in enumerate(blocks):
            side = position == 0  # the body runs when the test holds, the `else` when not
            if certain is not None and certain != side:
                continue
            taken.append((block, assumed is not None and assumed != side))
        return taken

    def _walk_block(
        self,
        statements: Iterable[Statement],
        trail: tuple[Step, ...],
        events: list[Event],
        active: set[FunctionInfo],
        quiet: bool = False,
    ) -> None:
        """Walk statements in order (`quiet`: leaving out their draws)."""
        for statement in statements:
            for call in statement.calls:
                self._walk_call(call, statement, trail, events, active, quiet)
            if isinstance(statement.node, cst.FunctionDef):
                continue
            inner = trail + (Step(statement, None),)
            for block, draws_left_out in self._taken(statement):
                self._walk_block(block, inner, events, active, quiet or draws_left_out)
            if isinstance(statement.node, cst.With):
                self._restore_on_exit(statement, inner, events)

    def _restore_on_exit(
        self, statement: Statement, trail: tuple[Step, ...], events: list[Event]
    ) -> None:
        """A `with fork_rng():` block puts back, on exit, the states it saved on entry."""
        for item in statement.node.items:
            restored = isolated(self.index, item.item, statement.scope)
            if restored and isinstance(item.item, cst.Call):
                qualified = self.index.qualify(item.item.func, statement.scope) or ""
                events.append(Event(Effect("restore", qualified, restored), item.item, trail))

    def _walk_call(
        self,
        call: cst.Call,
        statement: Statement,
        trail: tuple[Step, ...],
        events: list[Event],
        active: set[FunctionInfo],
        quiet: bool = False,
    ) -> None:
        if loading_constructor(call):  # `Net.from_pretrained(..)`: what it builds is overwritten
            return
        here = trail + (Step(statement, call),)
        effect = self.classifier.effect(call, statement.scope)
        if (
            effect is not None
            and effect.kind == "draw"
            and (quiet or any(self._discards_draws(step) for step in here))
        ):
            effect = None
        if effect is None and call in self.watched:
            effect = REACHED
        if effect is not None:
            events.append(Event(effect, call, here))
            if effect.kind == "seed":
                return
        called = self._resolved(call, statement.scope)
        targets = [called] if called is not None else self._run_by_a_runner(call, statement.scope)
        for target in targets:
            if target in active or len(active) >= _MAX_CALL_DEPTH:
                continue
            active.add(target)
            # a runner passes the command line's values, not known here
            self._certain[target.scope] = (
                parameter_values(self.index, target, call) if called is not None else {}
            )
            receiver = self._receiver(call, statement.scope, target)
            if receiver is not None:
                self._receivers[target.scope] = receiver
            self._walk_block(self.index.body_of(target), here, events, active, quiet)
            self._receivers.pop(target.scope, None)
            del self._certain[target.scope]
            active.discard(target)

    def _resolved(self, call: cst.Call, scope: Scope) -> FunctionInfo | None:
        """The module-local function a call runs (for `self.`, a subclass's `_override`)."""
        return self._override(call.func, scope) or self.index.resolve_local_call(call, scope)

    def _override(self, expr: cst.BaseExpression, scope: Scope) -> FunctionInfo | None:
        """`self.batch_update` in a method run on an instance of a subclass: the subclass's
        method (`TrainEpoch(..).run(loader)` runs `Epoch.run`, whose `self.batch_update` is
        `TrainEpoch.batch_update`)."""
        receiver = self._receivers.get(scope)
        if (
            receiver is None
            or not isinstance(expr, cst.Attribute)
            or not isinstance(expr.value, cst.Name)
            or expr.value.value != "self"
        ):
            return None
        return self.index.find_method(receiver, expr.attr.value)

    def _receiver(self, call: cst.Call, scope: Scope, target: FunctionInfo) -> ClassInfo | None:
        """The class of the instance a method runs on, where it is a subclass of the class that
        defines the method: kept along `self.` calls."""
        if target.owner_class is None:
            return None
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            if func.value.value == "self" and scope in self._receivers:
                return self._receivers[scope]
        qualified = self.index.qualify(func, scope) or ""
        owner, _, method = qualified.rpartition("().")
        cls = self.index.classes.get(owner) if method else None
        return cls if cls is not None and cls is not target.owner_class else None

    def _run_by_a_runner(self, call: cst.Call, scope: Scope) -> list[FunctionInfo]:
        """The module's functions a command-line runner call runs in this process: the one given
        to `fire.Fire(train)`, `app.run(main)`, `typer.run(main)`, `CLI(main)`; each public
        function of the module for `fire.Fire()`; the
        `@app.command()` functions of a typer app called as `app()`; with `into_processes`, the
        function a process is started with (`mp.spawn(main_worker, ..)`)."""
        qualified = self.index.qualify(call.func, scope)
        if qualified in catalog.CLI_RUNNERS and call.args:
            given = self.index.functions.get(self.index.qualify(call.args[0].value, scope) or "")
            return [given] if given is not None else []
        if qualified == "fire.Fire" and not call.args:
            # `fire.Fire()`: the command line names which of the module's functions runs
            return [
                function
                for function in self.index.functions.values()
                if function.owner_class is None
                and function.scope.parent is self.index.module_scope
                and not function.node.name.value.startswith("_")
            ]
        if self.into_processes and (qualified or "").startswith(catalog.PROCESS_MODULES):
            values = [argument(call, "target", None), *(arg.value for arg in call.args[:1])]
            return [
                function
                for value in values
                if value is not None
                and (function := self.index.functions.get(self.index.qualify(value, scope) or ""))
            ]
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "step":
            # `optimizer.step(closure)`: LBFGS (and any optimizer given one) calls the closure
            closure = argument(call, "closure", 0)
            function = self._function_named(closure, scope) if closure is not None else None
            return [function] if function is not None else []
        if qualified in catalog.CLI_APPS and isinstance(call.func, cst.Name):
            app = call.func.value
            return [
                function
                for function in self.index.functions.values()
                if any(
                    isinstance(decorator.decorator, cst.Call)
                    and isinstance(decorator.decorator.func, cst.Attribute)
                    and decorator.decorator.func.attr.value == "command"
                    and isinstance(decorator.decorator.func.value, cst.Name)
                    and decorator.decorator.func.value.value == app
                    for decorator in function.node.decorators
                )
            ]
        return []

    def _function_named(self, expr: cst.BaseExpression, scope: Scope) -> FunctionInfo | None:
        """The module's function or method an expression names, not calls (`closure`,
        `self.loss_closure`)."""
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return None
        override = self._override(expr, scope)
        if override is not None:
            return override
        qualified = self.index.qualify(expr, scope) or ""
        if qualified in self.index.functions:
            return self.index.functions[qualified]
        owner, _, method = qualified.rpartition("().")
        cls = self.index.classes.get(owner) if method and "(" not in method else None
        return self.index.find_method(cls, method) if cls is not None else None


def isolated(index: ModuleIndex, expr: cst.BaseExpression, scope: Scope) -> frozenset[str]:
    """The generators a `with` item restores on exit (`fork_rng(enabled=False)` restores none)."""
    if not isinstance(expr, cst.Call) or is_literal(argument(expr, "enabled", None), "False"):
        return frozenset()
    return catalog.RNG_ISOLATORS.get(index.qualify(expr.func, scope) or "", frozenset())


def without_undone_seeding(events: list[Event]) -> list[Event]:
    """The events with seeding that is undone taken out (facts: "Seeding that is undone is not
    seeding").

    A seeding between a save of a generator's state and the restore of that state (`get_state()`
    ... `set_state()`, a `with fork_rng():` block) controls only the draws between them: those
    draws are taken out with it (they repeat from run to run), and after the restore the generator
    is as seeded, or unseeded, as before. Saves and restores themselves are taken out too; a
    restore with no save before it (a resumed run's saved state) changes nothing here.
    """
    saves: list[tuple[int, frozenset[str]]] = []
    spans: list[tuple[int, int, frozenset[str]]] = []  # (save, restore, generators) paired
    for position, event in enumerate(events):
        if event.kind == "save":
            saves.append((position, event.generators))
        elif event.kind == "restore":
            paired = next(
                (k for k in range(len(saves) - 1, -1, -1) if saves[k][1] & event.generators), None
            )
            if paired is not None:
                start, saved = saves.pop(paired)
                spans.append((start, position, saved & event.generators))
    kept: list[Event] = []
    controlled: dict[str, int] = {}  # generator -> where its temporary seeding ends
    for position, event in enumerate(events):
        if event.kind in ("save", "restore"):
            continue
        undone = frozenset().union(*(gens for start, end, gens in spans if start < position < end))
        if event.kind in ("seed", "reseed") and event.generators & undone:
            for generator in event.generators & undone:
                controlled[generator] = max(
                    end
                    for start, end, gens in spans
                    if start < position < end and generator in gens
                )
            rest = event.generators - undone
            if rest:
                kept.append(replace(event, effect=replace(event.effect, generators=rest)))
            continue
        if event.kind == "draw" and all(
            controlled.get(generator, -1) > position for generator in event.generators
        ):
            continue  # drawn under a seeding that is undone later: the same on every run
        kept.append(event)
    return kept


def remembered(project: Project | None, cache: dict, key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()` kept in `cache`; with a project, also the modules it read, which count as read
    again each time the value is reused (a cached result depends on them as the computation did)."""
    if project is not None:
        return project.remembered(cache, key, compute)
    if key not in cache:
        cache[key] = (compute(), {})
    return cache[key][0]


def divergence(first: Event, second: Event) -> int:
    """Index of the first step where the trails of two events part."""
    for position, (a, b) in enumerate(zip(first.trail, second.trail)):
        if a != b:
            return position
    return min(len(first.trail), len(second.trail)) - 1


# Compound statements whose suites cannot all run: if/else, match cases, try handlers and else.
def _exclusive_suites(node: cst.CSTNode, first: int, second: int) -> bool:
    if first == second:
        return False
    if isinstance(node, (cst.If, cst.Match)):
        return True
    if isinstance(node, cst.Try):
        handlers_and_else = range(1, 1 + len(node.handlers) + (node.orelse is not None))
        return first in handlers_and_else and second in handlers_and_else
    return False


def exclusive(index: ModuleIndex, first: Event, second: Event) -> bool:
    """Whether two events sit in branches of one statement that cannot both run, or the first in
    a branch that leaves the function (`if args.watch: watch(); return`) before the second."""
    position = divergence(first, second)
    if position >= min(len(first.trail), len(second.trail)):
        return False
    if _leaves_before(index, first.trail[position:], second.trail[position].statement):
        return True
    if position == 0:
        return False
    compound = first.trail[position - 1].statement
    if compound is not second.trail[position - 1].statement:
        return False
    blocks = index.blocks_of(compound.node)
    suites = [
        next((k for k, block in enumerate(blocks) if event.trail[position].statement in block), -1)
        for event in (first, second)
    ]
    return _exclusive_suites(compound.node, *suites)


def _leaves_before(index: ModuleIndex, steps: tuple[Step, ...], later: Statement) -> bool:
    """Whether `steps` go into a branch of an `if` that ends by returning or raising, and `later`
    comes after that `if` in its block: running the branch, the code never reaches `later`."""
    if (
        len(steps) < 2
        or steps[0].call is not None
        or not isinstance(steps[0].statement.node, cst.If)
    ):
        return False
    branch = steps[0].statement
    if later.siblings is not branch.siblings or later.position <= branch.position:
        return False
    block = next(
        (block for block in index.blocks_of(branch.node) if steps[1].statement in block), None
    )
    return bool(block) and isinstance(block[-1].node, (cst.Return, cst.Raise))


def reported_call(event: Event, start: int) -> cst.Call:
    """The call to point at for an event, seen from trail position `start` on."""
    for step in event.trail[start:]:
        if step.call is not None:
            return step.call
    return event.call


def seeded_on_import(body: Flow, deterministic_only: bool = False) -> frozenset[str]:
    """What a module body's flow seeds outside its `__main__` block: a spawned child re-imports the
    main module (as `__mp_main__`), and so runs that seeding too."""
    return seeded_by(
        (event for event in body.events if not is_main_guard(event.trail[0].statement.node)),
        deterministic_only,
    )


def _records(index: ModuleIndex, function: FunctionInfo, parameter: str) -> bool:
    """Whether a helper hands its seed to something besides seeding: stores it in an entry
    (`variant["seed"] = seed`, the configuration a run logs), returns it, or passes it to another
    call (`print(f"seed: {seed}")`, `logger.info(..)`, `json.dump(..)`): the seed it picks may be
    logged, and a run replayed from the log."""
    for statement in index.statements_in(function.scope):
        node = statement.node
        if isinstance(node, cst.Assign):
            if any(isinstance(t.target, cst.Subscript) for t in node.targets) and _reads(
                node.value, parameter
            ):
                return True
        elif isinstance(node, cst.Return) and node.value is not None:
            if _reads(node.value, parameter):
                return True
        elif isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
            call = node.value
            if "seed" not in callee_name(call.func).lower() and any(
                _reads(arg.value, parameter) for arg in call.args
            ):
                return True
    return False


def _reads(node: cst.BaseExpression, name: str) -> bool:
    return any(path.split(".", 1)[0] == name for path in read_paths(node))


def seeded_by(events: Iterable[Event], deterministic_only: bool = False) -> frozenset[str]:
    """The generators some of `events` seed, CUDA's current device counted as CUDA (a random seed
    too, unless `deterministic_only`)."""
    seeded: set[str] = set()
    for event in events:
        if (event.kind == "seed" and (event.effect.deterministic or not deterministic_only)) or (
            event.kind == "reseed" and not deterministic_only
        ):
            seeded |= catalog.cuda_as_one(event.generators)
    return frozenset(seeded)
