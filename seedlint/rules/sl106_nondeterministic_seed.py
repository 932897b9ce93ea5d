"""SL106 nondeterministic-seed: seeding that is itself random."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_none, seed_argument
from seedlint.analysis.bindings import read_names
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Effect
from seedlint.analysis.index import (
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    all_parameters,
    dotted_name,
    positional_parameters,
)
from seedlint.analysis.programs import in_test
from seedlint.analysis.seed_picks import picks_a_seed
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

_FIX = Fix(
    "Seed with a fixed value (for example from a `--seed` argument)", Applicability.DISPLAY_ONLY
)


class NondeterministicSeed(Rule):
    code = "SL106"
    name = "nondeterministic-seed"
    summary = "A seeding call that uses a different seed on every run"
    fix_availability = "display-only"
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        for call, scope in context.index.all_calls:
            effect = context.classifier.seeding_effect(call, scope)
            if effect is not None and effect.kind == "reseed":
                if _defines_a_reseeding_api(context, scope):
                    continue
                yield self._finding(
                    call,
                    f"`{context.code(call.func)}()` reseeds with a nondeterministic value despite "
                    "its name, so every run draws different numbers",
                    effect.generators,
                )
            elif (
                effect is not None
                and effect.kind == "seed"
                and not effect.deterministic
                and not effect.assumed
                and not _returned(context, effect.seed_arg, scope)
                and not (effect.summarised and effect.seed_arg is None and in_test(context, scope))
            ):  # a test exercising a class's default (random) seed checks what holds for any seed
                yield self._finding(
                    call, self._seed_message(context, call, effect), effect.generators
                )
        for call, parameter, seeder, generators in _helpers_left_to_chance(context):
            yield self._finding(
                call,
                f"`{context.code(call.func)}()` is called without its `{parameter}`, which "
                f"defaults to None and goes straight to `{seeder}(None)`, which seeds from the OS "
                "entropy source, so every run draws different numbers, and no log says which",
                generators,
            )
        if context.seeding_flows:
            yield from self._unseeded_rng_objects(context)

    @staticmethod
    def _finding(call: cst.Call, message: str, generators: frozenset[str]) -> Finding:
        return Finding(
            call, message, _FIX, help="Pass a fixed seed, and log it", generators=generators
        )

    @staticmethod
    def _seed_message(context: FileContext, call: cst.Call, effect: Effect) -> str:
        callee, seed = context.code(call.func), effect.seed_arg
        project = context.settings.project
        summary = project.summary(effect.qualified) if effect.summarised and project else None
        if seed is None and summary is not None and summary.seed_parameter is not None:
            return (
                f"`{callee}()` is called without its `{summary.seed_parameter[0]}`, which defaults "
                "to None and which the helper replaces only with a value that differs on every "
                "run, so every run draws different numbers, and no log says which"
            )
        if is_none(seed):
            return (
                f"`{callee}` without a seed (or with None) seeds from the OS entropy source or the "
                "clock, so every run draws different numbers"
            )
        return (
            f"`{callee}` gets a seed derived from the clock, the process ID, uuid, `os.urandom`, "
            "`secrets` or a random reseed such as `torch.seed()`, which differs on every run, so "
            "no run can be repeated"
        )

    def _unseeded_rng_objects(self, context: FileContext) -> Iterator[Finding]:
        constructors = context.calls_to(*catalog.UNSEEDED_RNG_CONSTRUCTORS)
        placed = context.placements(call for call, _ in constructors)
        for call, scope in constructors:
            picks = any(
                picks_a_seed(context.index, flow, event) for flow, event in placed.get(call, ())
            )
            if (
                is_none(seed_argument(call))
                and not picks
                and not _picks_a_missing_seed(context, call)
                and not _seeded_later(context, call)
            ):
                kind = catalog.UNSEEDED_RNG_CONSTRUCTORS[context.index.qualify(call.func, scope)]
                yield self._finding(
                    call,
                    f"`{context.code(call.func)}()` without a seed takes fresh OS entropy, so its "
                    "values differ on every run even though this code seeds the global generators",
                    frozenset({kind}),
                )


def _helpers_left_to_chance(
    context: FileContext,
) -> Iterator[tuple[cst.Call, str, str, frozenset[str]]]:
    """(call, parameter, seeder) for each call of a function of this module that leaves out a
    seed parameter defaulting to None, which the function hands unchanged, and unguarded, to a
    seeder that seeds at random given None (`def seed_everything(seed=None):
    np.random.seed(seed)`, then `seed_everything()`)."""
    index = context.index
    random_when_none: dict[FunctionInfo, tuple[str, str, frozenset[str]]] = {}
    for function in index.functions.values():
        for call in index.calls_by_scope.get(function.scope, ()):
            seeder = catalog.SEEDERS.get(index.qualify(call.func, function.scope) or "")
            arg = (
                seed_argument(call, seeder.seed_keyword) if seeder and seeder.seed_keyword else None
            )
            if not (seeder and seeder.none_is_random and isinstance(arg, cst.Name)):
                continue
            default = next(
                (p.default for p in all_parameters(function.node) if p.name.value == arg.value),
                None,
            )
            if (
                is_none(default)
                and default is not None
                and len(function.scope.values.get(arg.value, ())) == 1
                and not _guarded_by(index, index.statement_of[call], arg.value)
            ):
                random_when_none[function] = (arg.value, context.code(call.func), seeder.seeds)
                break
    for call, scope in index.all_calls:
        function = index.resolve_local_call(call, scope)
        if function not in random_when_none:
            continue
        parameter, seeder, generators = random_when_none[function]
        position = next(
            (i for i, p in enumerate(positional_parameters(function)) if p.name.value == parameter),
            None,
        )
        if argument(call, parameter, position) is None and not any(arg.star for arg in call.args):
            yield call, parameter, seeder, generators


def _guarded_by(index: ModuleIndex, statement: Statement, name: str) -> bool:
    """Whether a statement runs under an `if` of its function that tests `name`."""
    compound = index.enclosing(statement)
    while compound is not None and not isinstance(compound.node, (cst.FunctionDef, cst.ClassDef)):
        if isinstance(compound.node, cst.If) and name in read_names(compound.node.test):
            return True
        compound = index.enclosing(compound)
    return False


def _defines_a_reseeding_api(context: FileContext, scope: Scope) -> bool:
    """Whether the call is part of a library's own reseeding function (`torch.seed()` is
    `default_generator.seed()` in torch/random.py): its callers choose the reseed, and SL106 flags
    them."""
    if context.module_name.split(".", 1)[0] not in catalog.LIBRARY_PACKAGES:
        return False
    current: Scope | None = scope
    while current is not None:
        function = context.index.function_of_scope.get(current)
        if function is not None and function.node.name.value in ("seed", "seed_all"):
            return True
        current = current.parent
    return False


def _returned(context: FileContext, seed: cst.BaseExpression | None, scope: Scope) -> bool:
    """Whether a random seed is handed back to the caller (`seed = torch.seed(); ...; return seed`):
    then it is a chosen seed the caller can log and pass again, as `torch.seed()` itself does."""
    if not isinstance(seed, cst.Name) or scope.kind != "function":
        return False
    returns = (
        s.node
        for block in context.index.statements.values()
        for s in block
        if s.scope is scope and isinstance(s.node, cst.Return)
    )
    return any(
        isinstance(node.value, cst.Name) and node.value.value == seed.value for node in returns
    )


def _seeded_later(context: FileContext, call: cst.Call) -> bool:
    """Whether the RNG object a call makes is stored under a name that the module seeds with a
    value (`rnd = random.Random()`, then `rnd.seed(42)`)."""
    node = context.index.statement_of[call].node
    if not (isinstance(node, cst.Assign) and node.value is call and len(node.targets) == 1):
        return False
    name = dotted_name(node.targets[0].target)
    return name is not None and any(
        dotted_name(seeding.func.value) == name and not is_none(seed_argument(seeding))  # type: ignore[attr-defined]
        for seeding, _ in context.calls_by_method("seed")
    )


def _picks_a_missing_seed(context: FileContext, call: cst.Call) -> bool:
    """Whether an unseeded RNG only picks a seed the caller did not give:
    `if seed is None: seed = int(np.random.RandomState().randint(2**32))`."""
    statement = context.index.statement_of[call]
    node, branch = statement.node, context.index.enclosing(statement)
    if not (
        isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0].target, cst.Name)
    ):
        return False
    if (
        branch is None
        or not isinstance(branch.node, cst.If)
        or statement not in context.index.blocks_of(branch.node)[0]
    ):
        return False
    name, test = node.targets[0].target.value, branch.node.test
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
        return isinstance(test, cst.Name) and test.value == name
    return (
        isinstance(test, cst.Comparison)
        and isinstance(test.left, cst.Name)
        and test.left.value == name
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, (cst.Is, cst.Equal))
        and is_none(test.comparisons[0].comparator)
    )
