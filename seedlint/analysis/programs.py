"""Programs that train: a seeded CUDA program and the project code it runs.

A model module rarely seeds or mentions CUDA itself: the training script that imports it does. What
holds in that script (it seeds, runs on CUDA, runs backward passes and never turns deterministic
algorithms on) holds for the code it runs, so SL303 judges the modules it trains in its context. The
classes and functions it runs are found from what it calls: each call resolving to a project class
or function reaches it, and the calls in that class or function lead on, a few calls deep (a dataset
class is not followed: its code runs in the data loader). Libraries stay libraries
(`catalog.LIBRARY_PACKAGES`, even when the linted project is torch's own tree), and a test module is
not a training program: its seed serves its own checks.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument
from seedlint.analysis.branches import (
    parameter_values,
    ruled_out,
    values_passed,
    with_derived_flags,
)
from seedlint.analysis.context import AnalysisSettings, FileContext, puts_on_cuda
from seedlint.analysis.environment import deterministic_mode_on, string_value
from seedlint.analysis.gradients import differentiates, is_backward
from seedlint.analysis.index import ClassInfo, ModuleIndex, Scope, bind_arguments
from seedlint.analysis.project import ProjectIndex
from seedlint.analysis.walk import iter_descendants, written
from seedlint.files import is_test
from seedlint.gates import TRAINED, program_gate, program_kinds, without_comments
from seedlint.parsing import Unplaced

_DEPTH = 4  # calls followed from the program: model, its blocks, their layers, their helpers
# calls followed from the program to its backward pass and optimizer step: a wrapper, the
# trainer's `fit`, its epoch, its batches, its update
_TRAINING_DEPTH = 5
_MAX_DEFINITIONS = 400
_DETERMINISTIC_HELPERS = frozenset(helper for helper, *_ in catalog.DETERMINISTIC_HELPERS)
# Option names of a seed (`--seed`, `--random-seed`, `--manualSeed`, `-seed`).
_SEED_OPTION = re.compile(r"^--?(random[_-]?|manual[_-]?)?seed$", re.IGNORECASE)
# What a method's class may inherit and still have only its own code call it (`never_named`).
_PLAIN_BASES = frozenset({"builtins.object", "torch.nn.Module", "torch.nn.modules.module.Module"})
# What lets a module make names its code never spells (`fails_on_import`).
_MADE_AT_RUN_TIME = (
    b"import *",
    b"__getattr__",
    b"globals()",
    b"vars()",
    b"exec(",
    b"setattr(",
    b"sys.modules",
)
# The public methods of an `nn.Module` subclass that torch itself calls.
_RUN_BY_TORCH = frozenset({"forward", "extra_repr"})


def program_gates(project: ProjectIndex, path: Path) -> frozenset[bytes]:
    """A program's project gates (read from its bytes first): when it seeds, a `RUN_SEEDED`
    `program_gate` for each class and function it runs, and a `TRAINED` one for each when it
    also trains on CUDA and leaves deterministic algorithms off. Scripts only: a notebook's
    cells are not read as a program here."""
    if path.suffix != ".py" or not os.path.isfile(path):  # a FIFO beside a script blocks a read
        return frozenset()
    try:
        data = project.finder.read_bytes(path)
    except OSError:
        return frozenset()
    kinds = program_kinds(data)
    if not kinds or is_test(path, data):
        return frozenset()
    settings = AnalysisSettings(project.seed_functions, project=project)
    for faithful in (False, True):  # lean first; in full where a position is asked for
        context = FileContext.of_project_file(path, settings, faithful)
        if context is None:
            return frozenset()
        try:
            return _program_gates(context, kinds)
        except Unplaced:
            continue
    return frozenset()


def _program_gates(context: FileContext, kinds: tuple[bytes, ...]) -> frozenset[bytes]:
    if not context.seeding_flows:
        return frozenset()
    if TRAINED in kinds and not is_seeded_cuda_training(context):
        kinds = tuple(kind for kind in kinds if kind != TRAINED)
    if not kinds:
        return frozenset()
    program = os.path.abspath(context.path)
    return frozenset(
        program_gate(kind, str(module), program, definition)
        for module, definitions in trained_definitions(context).items()
        for definition in definitions
        for kind in kinds
    )


def programs_running(
    context: FileContext, runners: Mapping[str, list[str]], scope: Scope
) -> list[str]:
    """The programs among `runners` (`FileContext.trainers` or `seeded_runners`) that run the
    class or function a scope is in (the module's top level runs when any of them imports it)."""
    definition = definition_of(context.index, scope)
    if definition:
        return runners.get(local_name(context.index, definition), [])
    return sorted({program for programs in runners.values() for program in programs})


def in_test(context: FileContext, scope: Scope) -> bool:
    """Whether code runs as a test: in a test file, or in a `test*` function (or a method of a
    `Test*` class): its seeding serves its checks (reseeding to compare two computations, once
    per case), not a training run."""
    if is_test(Path(context.path), context.source.text):
        return True
    function = context.index.function_of_scope.get(scope)
    while function is not None:
        if function.node.name.value.startswith("test") or (
            function.owner_class is not None
            and function.owner_class.node.name.value.startswith("Test")
        ):
            return True
        parent = function.scope.parent
        function = context.index.function_of_scope.get(parent) if parent is not None else None
    return False


def seeded_by_imports(
    context: FileContext, deterministic_only: bool = False
) -> dict[str, frozenset[str]]:
    """The project modules this module imports that seed when imported (`config.py` running
    `np.random.seed(0)` at its top level), with the generators each seeds."""
    project = context.settings.project
    if project is None:
        return {}
    found = {}
    for name in context.imports:
        if name.partition(".")[0] in catalog.LIBRARY_PACKAGES:
            continue  # a library's modules seed nothing when imported
        seeded = project.seeds_on_import(name, deterministic_only)
        if seeded:
            found[name] = seeded
    return found


def imported_elsewhere(context: FileContext) -> bool:
    """Whether another project file imports this module: a library module whose `__main__` block
    is a demo or a self-test, not the program. A test importing a script's class (`noising_test.py`
    doing `from ddpm import Diffusion`) does not make the script a library."""
    return next(importers(context), None) is not None


def importers(context: FileContext) -> Iterator[tuple[Path, bytes]]:
    """The other project files (not tests) that import this module, with their bytes."""
    project = context.settings.project
    if project is None:
        return
    finder, name = project.finder, context.module_name
    here = os.path.abspath(context.path)
    root = finder.import_root(here)
    spelling = name.rsplit(".", 1)[-1]
    # an import of the module names its last part (among the files this run could read)
    for file in project.files_naming(spelling):
        if file == here or is_test(Path(file)):
            continue
        try:
            data = finder.read_bytes(Path(file))
        except OSError:
            continue
        imported = finder.imports_of(file, data)
        # the same import root: the name finds this file, not a namesake in another script's folder
        if (
            finder.import_root(file) == root
            and any(module == name or module.startswith(name + ".") for module in imported)
        ) or any(
            # a dotted path through folders without `__init__.py` (`models.lib.module`) that
            # finds it
            "." in module
            and module.endswith(f".{spelling}")
            and (finder.resolution(module) or ("",))[0] == here
            for module in imported
        ):
            yield Path(file), data


def training_calls(context: FileContext) -> list[cst.Call]:
    """The calls that train: backward passes (`loss.backward()`, `accelerator.backward(loss)`)
    first, then `torch.autograd.grad`, Lightning trainers' `fit` and skorch networks' `fit` (a
    project subclass's too), each in source order."""
    fits = {f"{trainer}().fit" for trainer in catalog.LIGHTNING_TRAINERS | catalog.SKORCH_NETS} | {
        f"{trainer}.from_argparse_args().fit" for trainer in catalog.LIGHTNING_TRAINERS
    }
    backward, others = [], []
    for call, scope in context.index.all_calls:
        if is_backward(call):
            backward.append(call)
        elif (qualified := context.index.qualify(call.func, scope)) in (
            *catalog.GRADIENT_CALLS,
            *fits,
        ) or _fits_a_skorch_net(context, qualified):
            others.append(call)
        elif (callees := _callees(context.index, call)) and all(
            # `trainer.fit(..)` where each binding of `trainer` builds a Lightning trainer
            (fitted := "{}().{}".format(*callee.rpartition(".")[::2])) in fits
            or _fits_a_skorch_net(context, fitted)
            for callee in callees
        ):
            others.append(call)
    return backward + others


def _fits_a_skorch_net(context: FileContext, qualified: str | None) -> bool:
    """`Net(..).fit` for a project class deriving from a skorch network."""
    project = context.settings.project
    instance, _, method = (qualified or "").rpartition("().")
    if project is None or method != "fit" or not instance or "(" in instance:
        return False
    found = project.class_definition(instance)
    return found is not None and found[0].subclasses_of(found[1], catalog.SKORCH_NETS)


def trains_elsewhere(context: FileContext) -> cst.Call | None:
    """The first call running the file runs that runs a project function or method of another
    module which, with what it calls a few deep, both backpropagates and steps an optimizer
    (`runner.train()`; a class built, `Runner(args)`, only when no function call does: its
    constructor runs). Only the methods called are followed: a class whose `fit` trains is not
    trained by `render()`."""
    project = context.settings.project
    if project is None:
        return None
    reached = []
    for run, call in sorted(
        _program_runs(context), key=lambda found: found[0].name in found[0].module.classes
    ):
        built = run.name in run.module.classes
        backward, step = _reaches_training(project, run)
        if backward and step:
            return call
        reached.append((built, call, backward, step))
    # one call backpropagates and another steps (`mp_trainer.backward(loss)`, then
    # `mp_trainer.optimize(opt)`): the program runs both
    called = [(call, backward, step) for built, call, backward, step in reached if not built]
    if any(step for *_, step in called):
        return next((call for call, backward, _ in called if backward), None)
    return None


def _program_runs(context: FileContext) -> list[tuple[_Run, cst.Call]]:
    """The project functions, methods and classes of other modules that running the file runs,
    each with the call that runs it (computed once per file)."""
    project = context.settings.project
    if project is None:
        return []
    if "program runs" not in context.memo:
        ran = [call for call, _ in context.index.all_calls if call in context.calls_run]
        context.memo["program runs"] = _runs_elsewhere(project, context.index, ran)
    return context.memo["program runs"]  # type: ignore[return-value]


class _Run(NamedTuple):
    """A project function, method or class (its constructor) that runs, with its parameters given
    an object of a project class (`typed`: `run_training(dqn=agent)`, `self` for a method of a
    built object) and those given a literal (`values`: `run_epoch(model, loader, optimizer=None)`,
    the defaults included)."""

    module: ModuleIndex
    name: str
    typed: Mapping[str, str]
    values: Mapping[str, object]


def _run(
    project: ProjectIndex,
    index: ModuleIndex,
    call: cst.Call,
    typed: Mapping[str, str],
    module: ModuleIndex,
    name: str,
) -> _Run:
    """What `call`, made in `index` (whose parameters are given `typed`), runs of `name`."""
    passed = _passed_objects(project, index, call, typed, module, name)
    function = module.run_by_calling(name)
    values = parameter_values(module, function, call) if function is not None else {}
    return _Run(module, name, passed, values)


def _runs_elsewhere(
    project: ProjectIndex, index: ModuleIndex, calls: Iterable[cst.Call]
) -> list[tuple[_Run, cst.Call]]:
    """The project functions, methods and classes of other modules that `calls` run, each with
    the call that runs it."""
    found = []
    for call in calls:
        for qualified in _callees(index, call):
            if qualified.split(".", 1)[0] in catalog.LIBRARY_PACKAGES:
                continue
            definition = _run_definition(project, qualified)
            if definition is None or definition[0].module_name == index.module_name:
                continue
            run = _run(project, index, call, {}, *definition)
            instance, _, method = qualified.partition("().")
            if method and project.class_definition(instance):  # `Trainer(..).train()`
                run = run._replace(typed={**run.typed, "self": instance})
            found.append((run, call))
        scope = index.statement_of[call].scope
        for module, name in _passed_callables(project, index, call, scope):
            if module.module_name != index.module_name:  # `continue_main(config, main)`
                found.append((_Run(module, name, {}, {}), call))
    return found


def _callees(index: ModuleIndex, call: cst.Call) -> list[str]:
    """What a call runs, qualified: its callee, or, for a method of a name bound to one of
    several objects (`trainer = SingleTrainer(..)` on one branch, `EncDecTrainer(..)` on the
    other, then `trainer.mlm_step(..)`), that method of each."""
    scope = index.statement_of[call].scope
    qualified = index.qualify(call.func, scope)
    if qualified is not None:
        return [qualified]
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
        return []
    found = []
    for value in index.bound_values(func.value.value, scope):
        if not isinstance(value, cst.Call):
            continue
        instance = index.qualify(value, scope)  # `Net(..).to(device)` is the `Net()` built
        if instance is not None and instance.endswith("()") and "(" not in instance[:-2]:
            found.append(f"{instance}.{func.attr.value}")
            continue
        built = index.qualify(value.func, scope)
        if built is not None and "(" not in built:
            found.append(f"{built}.{func.attr.value}")
    return found


def _reaches_training(project: ProjectIndex, run: _Run) -> tuple[bool, bool]:
    """Whether a function or method (a class: its constructor), with the project functions and
    methods it calls a few deep, backpropagates, and whether it steps an optimizer."""
    backward = step = False
    for _, calls in _reached(project, [run], _TRAINING_DEPTH):
        backward = backward or any(is_backward(call) for call, _ in calls)
        step = step or any(_is_step(call) for call, _ in calls)
        if backward and step:
            break
    return backward, step


def reached_calls(context: FileContext) -> list[tuple[ModuleIndex, cst.Call, Scope]]:
    """The calls made by the project functions, methods and classes of other modules that
    running the file runs, with those they call a few deep (`create_model(opt)` →
    `define_G(..)` → `nn.Conv2d(..)`): what a program runs beyond its own text (computed once per
    file)."""
    project = context.settings.project
    if project is None:
        return []
    if "reached calls" not in context.memo:
        starts = [run for run, _ in _program_runs(context)]
        context.memo["reached calls"] = [
            (module, call, scope)
            for module, made in _reached(project, starts)
            for call, scope in made
        ]
    return context.memo["reached calls"]  # type: ignore[return-value]


def _reached(
    project: ProjectIndex, layer: list[_Run], depth: int = _DEPTH
) -> Iterator[tuple[ModuleIndex, list[tuple[cst.Call, Scope]]]]:
    """Each project function, method or class reached from `layer` up to `depth` calls deep,
    once for what it is given, with the calls it makes on the sides of its `if` statements that
    the literals it is given allow."""
    reached = set()
    for _ in range(depth):
        following = []
        for run in layer:
            key = (
                run.module.module_name,
                run.name,
                frozenset(run.typed.items()),
                frozenset((name, repr(value)) for name, value in run.values.items()),
            )
            if key in reached:
                continue
            reached.add(key)
            calls = _calls_run_by(run)
            yield run.module, calls
            following += _project_callees(project, run.module, calls, run.typed)
        layer = following


def _run_definition(
    project: ProjectIndex, qualified: str, depth: int = 0
) -> tuple[ModuleIndex, str] | None:
    """The module and qualified name of the project function, method or class a call runs
    (`pkg.Runner().train`: a method of an instance): a method a class inherits from a base of its
    module too (`SingleTrainer.clm_step` defined on `Trainer`), or of another project module
    (`Trainer(BaseTrainer)`, `train` defined in `base/base_trainer.py`)."""
    instance, _, method = qualified.partition("().")
    if method and "." not in method:  # the class, then its method (a module may be named as it)
        owner = instance
    else:
        found = project.definition(qualified.replace("().", "."))
        if found is not None:
            return found[1], found[2]
        owner, _, method = qualified.replace("().", ".").rpartition(".")
    cls = project.class_definition(owner) if owner else None
    if cls is None:
        return None
    function = cls[0].find_method(cls[1], method)
    if function is not None:
        return cls[0], function.qualified
    if depth >= _DEPTH:
        return None
    index, local = cls[0], [cls[1]]
    local += [index.classes[base] for base in cls[1].bases if base in index.classes]
    for base in (base for each in local for base in each.bases):
        if base not in index.classes and base.split(".", 1)[0] not in catalog.LIBRARY_PACKAGES:
            found = _run_definition(project, f"{base}().{method}", depth + 1)
            if found is not None:
                return found
    return None


def _calls_run_by(run: _Run) -> list[tuple[cst.Call, Scope]]:
    """The calls a function or method makes (with those of the functions defined in it); for a
    class, its constructor's. Not those on a side of an `if` that the literals it is given rule
    out (`if optimizer is not None:` in a function given `optimizer=None`)."""
    index, function = run.module, run.module.run_by_calling(run.name)
    if function is None:
        return []
    known = {function.scope: with_derived_flags(index, function, run.values)}
    return [
        (call, scope)
        for call, scope in index.all_calls
        if scope.within(function.scope)
        and not (run.values and ruled_out(index, index.statement_of[call], known))
    ]


def _project_callees(
    project: ProjectIndex,
    index: ModuleIndex,
    calls: list[tuple[cst.Call, Scope]],
    typed: Mapping[str, str],
) -> list[_Run]:
    """The project functions, methods and classes (not dataset classes: their code runs in the
    loader) that calls run, in any module (`self.train_epoch()` too; `dqn.train_step()` where
    `typed` says which project class's object the parameter `dqn` is given), each with what it is
    given."""
    found = []
    for call, module, name in _project_calls(project, index, calls, typed):
        run = _run(project, index, call, typed, module, name)
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value in typed
        ):
            # `self._train_epoch()` in a base's method run for a subclass: the subclass's
            run = run._replace(typed={**run.typed, "self": typed[func.value.value]})
        found.append(run)
    for call, scope in calls:  # what they are handed runs, given nothing known
        found += [
            _Run(module, name, {}, {})
            for module, name in _passed_callables(project, index, call, scope)
        ]
    return found


def _project_calls(
    project: ProjectIndex,
    index: ModuleIndex,
    calls: list[tuple[cst.Call, Scope]],
    typed: Mapping[str, str],
) -> Iterator[tuple[cst.Call, ModuleIndex, str]]:
    for call, scope in calls:
        if isinstance(call.func, cst.Call):  # `self.get_clf()(x, y)`: the method it returns
            for module, name in _returned_methods(index, call.func, scope):
                yield call, module, name
            continue
        func = call.func
        given = (
            typed.get(func.value.value)
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            else None
        )
        if given is not None:  # a method of the object a parameter is given
            definition = _run_definition(project, f"{given}().{func.attr.value}")
            if definition is not None:
                yield call, *definition
            continue
        qualified = index.qualify(call.func, scope)
        if qualified is not None and qualified.startswith("builtins.super()."):
            for module, name in _inherited_method(project, index, call, scope):
                yield call, module, name
            continue
        if qualified is None or qualified.endswith("()"):  # what a call returned, called
            picked = _picked_classes(index, call, scope) + _held_methods(index, call, scope)
            if qualified is None:  # `trainer.fit()`, `trainer` bound to one of several objects
                picked += _callees(index, call)
            for module, name in _inherited_method(project, index, call, scope) or [
                definition
                for each in picked
                if (definition := _run_definition(project, each)) is not None
            ]:
                yield call, module, name
            continue
        if qualified.split(".", 1)[0] in catalog.LIBRARY_PACKAGES:
            continue
        definition = _run_definition(project, qualified)
        if definition is None:
            continue
        module, name = definition
        if module.module_name.split(".", 1)[0] in catalog.LIBRARY_PACKAGES:
            continue
        defined = module.classes.get(name)
        if defined is None or not module.subclasses_of(defined, catalog.DATASET_BASES):
            yield call, module, name


def _passed_callables(
    project: ProjectIndex, index: ModuleIndex, call: cst.Call, scope: Scope
) -> Iterator[tuple[ModuleIndex, str]]:
    """The project functions and classes a call is handed, not called, to run them itself: a
    step function an engine runs (`Engine(LanguageModelEngine.train)`), a model class a wrapper
    builds (`LitMF(MatrixFactorization, ..)`), a method of an object (`self.optimizer.step(
    self.loss_closure)`: LBFGS calls the closure). Not those a builtin is handed (`isinstance(x,
    Net)`)."""
    if (index.qualify(call.func, scope) or "").startswith("builtins."):
        return
    # a method of an object only to an optimizer's `step`, which calls its closure
    methods = isinstance(call.func, cst.Attribute) and call.func.attr.value == "step"
    for arg in call.args:
        if not isinstance(arg.value, (cst.Name, cst.Attribute)) or arg.star:
            continue
        qualified = index.qualify(arg.value, scope)
        if (
            qualified is None
            or ("(" in qualified and not (methods and _names_a_method(qualified)))
            or qualified.split(".", 1)[0] in catalog.LIBRARY_PACKAGES
        ):
            continue
        definition = _run_definition(project, qualified)
        if definition is None:
            continue
        module, name = definition
        defined = module.classes.get(name)
        if name in module.functions or (
            defined is not None and not module.subclasses_of(defined, catalog.DATASET_BASES)
        ):
            yield module, name


def _names_a_method(qualified: str) -> bool:
    """`pinn.PINN().loss_closure`: a method of an instance, not a call's result."""
    instance, _, method = qualified.partition("().")
    return bool(method) and "(" not in instance and "(" not in method


def _passed_objects(
    project: ProjectIndex,
    index: ModuleIndex,
    call: cst.Call,
    typed: Mapping[str, str],
    module: ModuleIndex,
    name: str,
) -> dict[str, str]:
    """The parameters of the project function or method `name` that `call` gives an object of a
    project class: a name the caller binds only to `Agent(..)` (or a parameter of its own that is
    given one), by the class's qualified name."""
    function = module.functions.get(name)
    if function is None:
        return {}
    scope = index.statement_of[call].scope if call in index.statement_of else None
    given = {}
    for parameter, value in bind_arguments(function, call):
        if not isinstance(value, cst.Name) or scope is None:
            continue
        if value.value in typed:
            given[parameter] = typed[value.value]
            continue
        built = {
            index.qualify(bound.func, scope) if isinstance(bound, cst.Call) else None
            for bound in index.bound_values(value.value, scope)
        }
        if len(built) == 1 and (cls := built.pop()) and project.class_definition(cls):
            given[parameter] = cls
    return given


def _inherited_method(
    project: ProjectIndex, index: ModuleIndex, call: cst.Call, scope: Scope
) -> list[tuple[ModuleIndex, str]]:
    """`self._train_epoch(..)` in a class whose base, a class of another project module, defines
    it (`TrainerFromFolder(Trainer)`); `super().__init__(..)`, the method of a project base of
    any module (`PlanetoidGAT(GATModel)`, whose constructor builds the layers)."""
    func, owner = call.func, scope.owner_class
    if owner is None or not isinstance(func, cst.Attribute):
        return []
    receiver = func.value
    through_super = (
        isinstance(receiver, cst.Call)
        and isinstance(receiver.func, cst.Name)
        and receiver.func.value == "super"
    )
    if not through_super and not (isinstance(receiver, cst.Name) and receiver.value == "self"):
        return []
    for base in owner.bases:
        if base.split(".", 1)[0] in catalog.LIBRARY_PACKAGES or (
            base in index.classes and not through_super
        ):
            continue
        definition = _run_definition(project, f"{base}().{func.attr.value}")
        if definition is not None:
            return [definition]
    return []


def _picked_classes(index: ModuleIndex, call: cst.Call, scope: Scope) -> list[str]:
    """The project classes of a dict literal that a key picks the called class from, any of which
    the call may build: `MODELS[args.arch](..)`, or `model = get_instance(name)` (a function
    of the module returning `{"unet": unet, ..}[name]`) then `model(n_classes)`."""
    func, tables = call.func, []
    if isinstance(func, cst.Subscript):
        tables.append((func.value, scope))
    elif isinstance(func, cst.Name):
        for value in index.bound_values(func.value, scope):
            if isinstance(value, cst.Subscript):
                tables.append((value.value, scope))
            elif isinstance(value, cst.Call) and (
                function := index.resolve_local_call(value, scope)
            ):
                tables += [
                    (node.value.value, function.scope)
                    for node in iter_descendants(function.node)
                    if isinstance(node, cst.Return) and isinstance(node.value, cst.Subscript)
                ]
    found = []
    for table, where in tables:
        if isinstance(table, cst.Name):
            table = index.lookup(table.value, where)
        for element in table.elements if isinstance(table, cst.Dict) else ():
            qualified = (
                index.qualify(element.value, where)
                if isinstance(element, cst.DictElement)
                else None
            )
            if qualified is not None and "(" not in qualified:
                found.append(qualified)
    return found


def _held_methods(index: ModuleIndex, call: cst.Call, scope: Scope) -> list[str]:
    """`self.step.train_D(..)` where the object's methods bind `self.step` only to objects of
    classes they build (`Train_LSGAN(..)` on one branch, `Train_WGAN_GP(..)` on another): that
    method of each class (also from a function nested in a method)."""
    func = call.func
    if not (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Attribute)
        and isinstance(func.value.value, cst.Name)
        and func.value.value.value == "self"
    ):
        return []
    current: Scope | None = scope
    while current is not None and current.owner_class is None:
        current = current.parent
    values = current.owner_class.attributes.get(func.value.attr.value, []) if current else []
    found = []
    for value, where in values:
        built = index.qualify(value.func, where) if isinstance(value, cst.Call) else None
        if built is None or "(" in built:
            return []  # an object the analysis cannot name: what runs is unknown
        found.append(f"{built}().{func.attr.value}")
    return found


def _returned_methods(
    index: ModuleIndex, call: cst.Call, scope: Scope
) -> list[tuple[ModuleIndex, str]]:
    """The methods of its own class a method call returns (`get_clf()` returning `self.log_reg`
    or `self.svc_clf`): what calling its result runs."""
    function = index.resolve_local_call(call, scope)
    owner = function.owner_class if function is not None else None
    if owner is None:
        return []
    found = []
    for statement in index.statements_in(function.scope):
        value = statement.node.value if isinstance(statement.node, cst.Return) else None
        if (
            isinstance(value, cst.Attribute)
            and isinstance(value.value, cst.Name)
            and value.value.value == "self"
            and (method := index.find_method(owner, value.attr.value)) is not None
        ):
            found.append((index, method.qualified))
    return found


def _is_step_call(call: cst.Call) -> bool:
    """`x.step(..)`, and `x.step_and_update_lr()` of the scheduled-optimizer wrappers."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value.split("_")[0] == "step"


def _is_step(call: cst.Call) -> bool:
    """`.step()` on what its name says is an optimizer (`optimizer.step()`, `scaler.step(opt)`)."""
    if not _is_step_call(call):
        return False
    func = call.func
    receiver = written(func.value).lower()
    handed = written(call.args[0].value).lower() if call.args else ""
    # a training engine steps its optimizer (DeepSpeed's `model_engine.step()`)
    return (
        ("opt" in receiver and "sched" not in receiver) or "opt" in handed or "engine" in receiver
    )


def optimizer_steps(context: FileContext) -> list[cst.Call]:
    """Calls that step an optimizer: `.step()` on a `torch.optim` optimizer or on a name that says
    it is one (`optimizer_G.step()`, `d_optim.step()`), a scaler's `scaler.step(optimizer)`, or a
    hand-written step (`param.data.sub_(lr * param.grad)`, or `param -= lr * param.grad` with
    `param.grad.zero_()` or the backward pass beside it: the backward pass counts as the step)."""
    return [
        call
        for call, scope in context.index.all_calls
        if _is_step(call)
        or _is_manual_step(call)
        or (
            (_clears_gradient(call) or is_backward(call))
            and _moves_by_gradient(context.index, scope)
        )
        or (
            _is_step_call(call)
            and (context.index.qualify(call.func.value, scope) or "").startswith("torch.optim.")
        )
    ]


def _is_manual_step(call: cst.Call) -> bool:
    """A parameter moved in place by its gradient (`param.data.sub_(lr * param.grad)`)."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value in ("sub_", "add_")
        and any(_reads_gradient(arg.value) for arg in call.args)
    )


def _clears_gradient(call: cst.Call) -> bool:
    """`param.grad.zero_()`, `param.grad.data.zero_()`: a gradient cleared (not a step by
    itself: an autograd demo clears what it printed)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "zero_"):
        return False
    receiver = func.value
    if isinstance(receiver, cst.Attribute) and receiver.attr.value == "data":
        receiver = receiver.value
    return isinstance(receiver, cst.Attribute) and receiver.attr.value == "grad"


def _moves_by_gradient(index: ModuleIndex, scope: Scope) -> bool:
    """Whether a scope's own code moves a value by its own gradient (`param -= lr * param.grad`,
    `p.data += -lr * p.grad`; not `scores += weight.grad.abs()`)."""
    for statement in index.statements_in(scope):
        node = statement.node
        if not isinstance(node, cst.AugAssign):
            continue
        target = node.target
        if isinstance(target, cst.Attribute) and target.attr.value == "data":
            target = target.value
        moved = written(target)
        if any(
            isinstance(inner, cst.Attribute)
            and inner.attr.value == "grad"
            and written(inner.value) == moved
            for inner in (node.value, *iter_descendants(node.value))
        ):
            return True
    return False


def _reads_gradient(node: cst.BaseExpression) -> bool:
    return any(
        isinstance(inner, cst.Attribute) and inner.attr.value == "grad"
        for inner in (node, *iter_descendants(node))
    )


def seed_options(context: FileContext) -> Iterator[tuple[cst.Call, str, str]]:
    """(call, flag, destination) of each seed option an `add_argument` or `click.option` makes."""
    for name in ("add_argument", "option"):
        for call, _ in context.calls_by_name(name):
            flags = [string_value(arg.value) for arg in call.args if arg.keyword is None]
            flag = next((f for f in flags if f and _SEED_OPTION.match(f)), None)
            if flag is None:
                continue
            longest = max((f for f in flags if f and f.startswith("-")), key=len)
            dest = string_value(argument(call, "dest", None)) or longest.lstrip("-").replace(
                "-", "_"
            )
            yield call, flag, dest


def is_seeded_cuda_training(context: FileContext) -> bool:
    """Whether the module is a program that seeds, trains on CUDA and leaves deterministic
    algorithms off: itself, or through the project code of other modules it runs (a trainer class
    that moves the model to CUDA and runs the backward passes; a seeding helper that turns
    deterministic algorithms on)."""
    if (
        is_test(Path(context.path), context.source.text)
        or not context.seeding_flows
        or deterministic_mode_on(context)
    ):
        return False
    if not differentiates(context) and trains_elsewhere(context) is None:
        return False
    reached = reached_calls(context)
    # a call of any switch, whatever its mode, leaves the question open: silent
    return not any(_switches_determinism(*found) for found in reached) and (
        context.uses_cuda or any(puts_on_cuda(*found) for found in reached)
    )


def _switches_determinism(module: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    qualified = module.qualify(call.func, scope)
    return qualified in catalog.DETERMINISTIC_SWITCHES or qualified in _DETERMINISTIC_HELPERS


def trained_definitions(context: FileContext) -> dict[Path, set[str]]:
    """The project classes and functions the program runs, by file, named within their module
    (`local_name`): those it calls, and a few calls deep those they call (a class: its methods
    and bases). A dataset class is not followed: its code runs in the loader, on the CPU."""
    project = context.settings.project
    if project is None:
        return {}
    found: dict[Path, set[str]] = {}
    starts = _calls_by_definition(context.index)
    reached = {(context.module_name, key) for key in starts}
    layer = [(context.index, key) for key in starts]
    for _ in range(_DEPTH):
        following = []
        for index, definition in layer:
            for path, module, name in _called(project, index, definition):
                key = _key(module, name)
                if (module.module_name, key) in reached or len(reached) > _MAX_DEFINITIONS:
                    continue
                reached.add((module.module_name, key))
                found.setdefault(Path(os.path.abspath(path)), set()).add(local_name(module, key))
                following.append((module, key))
        layer = following
    return found


def _called(
    project: ProjectIndex, index: ModuleIndex, definition: str
) -> list[tuple[Path, ModuleIndex, str]]:
    """The project definitions (file, module, qualified name) that a class or function of a module
    calls (a class: also its bases); "" is the module's own top level."""
    cls = index.classes.get(definition)
    names = list(cls.bases) if cls is not None else []
    for call, scope in _calls_by_definition(index).get(definition, ()):
        qualified = index.qualify(call.func, scope)
        if qualified is None or qualified.endswith("()"):  # what a call returned, called
            names += _picked_classes(index, call, scope)
        elif "(" not in qualified:
            names.append(qualified)
    called = []
    for qualified in dict.fromkeys(names):
        if qualified.split(".", 1)[0] in catalog.LIBRARY_PACKAGES:
            continue
        found = project.definition(qualified)
        if found is None or found[1].module_name.split(".", 1)[0] in catalog.LIBRARY_PACKAGES:
            continue
        defined = found[1].classes.get(found[2])
        if defined is None or not found[1].subclasses_of(defined, catalog.DATASET_BASES):
            called.append(found)
    return called


def _calls_by_definition(index: ModuleIndex) -> dict[str, list[tuple[cst.Call, Scope]]]:
    """A module's calls by the class or module-level function they are in ("" at top level)."""
    calls: dict[str, list[tuple[cst.Call, Scope]]] = {}
    for call, scope in index.all_calls:
        calls.setdefault(definition_of(index, scope), []).append((call, scope))
    return calls


def fails_on_import(context: FileContext) -> bool:
    """Whether the module stops at one of its own top-level imports: `from module import name`
    where `module` is a project module under the file's import root whose code never spells
    `name` (a stale script importing a class since renamed). Nothing after it runs, in the file
    or in what imports it. Left alone: notebooks, files that change `sys.path`, and modules
    that may make names at run time (`import *`, `__getattr__`, `globals()`, ...)."""
    project = context.settings.project
    if project is None or context.program is not None or "sys.path" in context.source.text:
        return False
    root = project.finder.import_root(context.path)
    for statement in context.module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar):
                continue
            found = project.module_file(context.index.import_base(small))
            if found is None or project.finder.import_root(found[0]) != root:
                continue
            code = without_comments(found[1])
            if any(spelling in code for spelling in _MADE_AT_RUN_TIME):
                continue
            for alias in small.names:
                name = alias.name.value if isinstance(alias.name, cst.Name) else ""
                if (
                    name
                    and not re.search(rb"\b%s\b" % name.encode(), code)
                    and not (
                        found[0].name == "__init__.py"
                        and project.finder.holds(str(found[0].parent), name)
                    )
                ):
                    return True
    return False


def never_named(context: FileContext, scope: Scope) -> bool:
    """Whether the code of `scope` is in a method that nothing can run: a method of a plain class
    (its bases `object`, `nn.Module` or such classes of its module) that no project file names
    but its own `def` (a model's `merge_oov2unk` no code calls, passes or overrides), or any
    method of a plain class that no project code names outside its own body. Names a library
    runs (`forward`, `extra_repr`, private and special names), decorated methods and functions
    outside classes are left to run."""
    project = context.settings.project
    index = context.index
    function = None
    while scope.parent is not None:
        function = index.function_of_scope.get(scope, function)
        scope = scope.parent
    if project is None or function is None or function.owner_class is None:
        return False
    if not _plain_class(index, function.owner_class, 0):
        return False
    code = without_comments(context.source.text.encode("utf-8", "surrogateescape"))
    here = os.path.abspath(context.path)
    if _class_never_named(context, function.owner_class, code, here):
        return True
    name = function.node.name.value
    if name.startswith("_") or name in _RUN_BY_TORCH or function.node.decorators:
        return False
    if len(re.findall(rb"\b%s\b" % re.escape(name.encode()), code)) != 1:
        return False
    return _named_only_in(project, name, here)


def _class_never_named(
    context: FileContext, cls: ClassInfo, code: bytes, here: str, depth: int = 0
) -> bool:
    """Whether no project code names a plain class but its own body (`class DRCNTester(Basic):`
    and its `super(DRCNTester, self)`) and the subclasses of its module that are never named
    either (`class LapSRNTrainer(LapSRNBasic):`), comments aside: nothing builds it, so none of
    its methods runs."""
    project = context.settings.project
    name = cls.node.name.value
    if project is None or cls.node.decorators or depth > 3:
        return False
    index = context.index
    pattern = rb"\b%s\b" % re.escape(name.encode())
    subclasses = [other for other in index.classes.values() if cls.qualified in other.bases]
    named_by = [cls, *subclasses]
    own = sum(
        len(
            re.findall(
                pattern, without_comments(context.code(c.node).encode("utf-8", "surrogateescape"))
            )
        )
        for c in named_by
    )
    if len(re.findall(pattern, code)) != own:
        return False
    if not all(_class_never_named(context, sub, code, here, depth + 1) for sub in subclasses):
        return False
    return _named_only_in(project, name, here)


def _named_only_in(project: ProjectIndex, name: str, here: str) -> bool:
    """Whether no project file but `here` names `name` in its code, comments aside
    (`# model = LapSRNTrainer(configs, ..)`)."""
    in_code = re.compile(rf"^[^#\n]*\b{re.escape(name)}\b", re.MULTILINE)
    # the first other file naming it in code ends the search
    return all(path == here for path in project.files_matching(name, in_code))


def _plain_class(index: ModuleIndex, cls: ClassInfo, depth: int) -> bool:
    """Whether a class's bases are `object`, `nn.Module` or such classes of its module."""
    for base in cls.bases:
        defined = index.classes.get(base)
        if base in _PLAIN_BASES:
            continue
        if defined is None or depth > 4 or not _plain_class(index, defined, depth + 1):
            return False
    return True


def definition_of(index: ModuleIndex, scope: Scope) -> str:
    """The class or module-level function a scope is in, qualified ("" for the module's top
    level)."""
    while scope.parent is not None and scope.parent is not index.module_scope:
        scope = scope.parent
    if scope.parent is None:
        return ""
    function = index.function_of_scope.get(scope)
    if function is not None:
        return _key(index, function.qualified)
    return scope.owner_class.qualified if scope.owner_class is not None else ""


def constructor_arguments(
    project: ProjectIndex, program: Path, module: Path, cls: ClassInfo
) -> list[dict[str, object]] | None:
    """The literal values of the constructor parameters of the class `cls` of the module at
    `module`, one dict per place the program at `program` builds it (a literal passed, or the
    default): where the program builds it, and where the constructor of another class of its
    module that the program builds does, passing on a parameter of its own
    (`ResnetBlock(dim, padding_type=padding_type)` in a generator built with its default
    `padding_type="reflect"`). None when one such place cannot be read, or none is found (a
    builder of another module may build it)."""
    built = project.module_at(program)
    index = project.module_at(module)
    if built is None or index is None:
        return None
    return _constructions(project, built, index, os.path.abspath(module), cls, 0) or None


def _constructions(
    project: ProjectIndex,
    built: ModuleIndex,
    index: ModuleIndex,
    target: str,
    cls: ClassInfo,
    depth: int,
) -> list[dict[str, object]] | None:
    """`constructor_arguments`, with [] where the program builds the class nowhere."""
    init = index.find_method(cls, "__init__")
    if init is None or depth > _DEPTH:
        return None
    found: list[dict[str, object]] = []
    for call, scope in built.all_calls:
        qualified = built.qualify(call.func, scope)
        definition = project.definition(qualified) if qualified and "(" not in qualified else None
        if (
            definition is not None
            and os.path.abspath(definition[0]) == target
            and local_name(definition[1], definition[2]) == local_name(index, cls.qualified)
        ):
            found.append(parameter_values(built, init, call))
    if built is index:
        return found
    for call, scope in index.all_calls:
        if index.qualify(call.func, scope) != cls.qualified:
            continue
        outer = index.function_of_scope.get(scope)
        if (
            outer is None
            or outer.owner_class is None
            or outer.owner_class is cls
            or outer.node.name.value != "__init__"
        ):
            return None  # built by a function or method: what it passes is not followed
        outer_found = _constructions(project, built, index, target, outer.owner_class, depth + 1)
        if outer_found is None:
            return None
        found += [values_passed(index, init, call, outer.scope, values) for values in outer_found]
    return found


def local_name(index: ModuleIndex, qualified: str) -> str:
    """A definition's name within its module (`PSPNet` for `model.pspnet.PSPNet`): the same
    whether the module is reached as `model.pspnet` from a script above a folder without
    `__init__.py` or linted as `pspnet` from inside it."""
    return qualified.removeprefix(f"{index.module_name}.")


def _key(index: ModuleIndex, qualified: str) -> str:
    """A definition's key: a method counts as its class."""
    function = index.functions.get(qualified)
    if function is not None and function.owner_class is not None:
        return function.owner_class.qualified
    return qualified
