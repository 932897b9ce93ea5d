"""SL111 unseeded-environment: an RL environment or action space no seed reaches, in code that
seeds."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_none
from seedlint.analysis.context import FileContext
from seedlint.analysis.generators import seed_reaching
from seedlint.analysis.index import (
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    bind_arguments,
)
from seedlint.analysis.instances import (
    escapes,
    hands_on,
    holds,
    instance_name,
    is_kept,
    kept_attributes,
    kept_from,
    methods_in_view,
)
from seedlint.analysis.repetition import loop_trail
from seedlint.analysis.walk import iter_descendants
from seedlint.diagnostics import Applicability, Fix
from seedlint.gates import RESETS, SEEDING
from seedlint.rules.base import Finding, Probe, Rule

_RESET_HELP = (
    "Seed the first reset only: `env.reset(seed=seed)`; later resets continue from that state"
)
_ENTROPY = (
    "its generator is seeded from OS entropy on first use, which `torch.manual_seed`, "
    "`np.random.seed` and `random.seed` do not reach, so the episodes change from run to run"
)
_MAX_HELPERS = 8  # functions of another module followed from one call
_SPACE_HELP = "Seed the space once after making the environment: `env.action_space.seed(seed)`"


class UnseededEnvironment(Rule):
    code = "SL111"
    name = "unseeded-environment"
    summary = (
        "A Gymnasium or gym environment, its action space or a procgen environment that no seed "
        "reaches, in code that seeds, so episodes change from run to run"
    )
    fix_availability = "unsafe"
    libraries = ("gymnasium",)
    patterns = ((SEEDING, b"gym"), (SEEDING, b"procgen"))
    probe = Probe.OUTPUT_RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.seeding_flows:  # code that seeds nothing does not mean to be reproducible
            return
        environments = _Environments(context)
        # only code that seeding code runs means to be reproducible: not another function of a
        # module some of whose code seeds (a test beside a seeded one, a library function)
        in_seeding_code = context.placements(call for call, _ in environments.made)
        for call, scope in environments.made:
            if call not in in_seeding_code:
                continue
            if environments.is_procgen(call, scope):
                if is_none(argument(call, "rand_seed", None)):
                    yield self._procgen_finding(context, call)
                continue
            found = environments.unseeded_reset(call, scope)
            if found is None:
                kept = environments.kept_unseeded_reset(call, scope)
                if kept is not None:
                    yield self._reset_finding(context, call, scope, kept)
                continue
            reset, resetter = found
            yield (
                self._handed_finding(context, call, reset, resetter)
                if resetter is not None
                else self._reset_finding(context, call, scope, reset)
            )
        for sample, made, statement, seeded in environments.unseeded_samples():
            if made in in_seeding_code:
                yield self._sample_finding(context, sample, made, statement, seeded)

    def _procgen_finding(self, context: FileContext, call: cst.Call) -> Finding:
        return Finding(
            call,
            f"`{context.code(call.func)}(..)` without `rand_seed=`: procgen draws its level seed "
            "from `random.SystemRandom` (OS entropy), which no seeding call reaches, so the "
            "levels change on every run",
            _seed_fix(context, call, "rand_seed", "Pass `rand_seed=seed`"),
            help="Pass the script's seed: `rand_seed=seed`",
        )

    def _reset_finding(
        self, context: FileContext, made: cst.Call, scope: Scope, reset: cst.Call
    ) -> Finding:
        fix = None
        if (
            _qualified(context, made, scope).startswith("gymnasium.")
            and loop_trail(context.index, reset) is None
        ):
            fix = _seed_fix(context, reset, "seed", None)
        return Finding(
            reset,
            f"`{context.code(reset.func)}()` without `seed=`, and the environment is never "
            f"seeded: {_ENTROPY}",
            fix,
            help=_RESET_HELP,
        )

    @staticmethod
    def _handed_finding(
        context: FileContext, made: cst.Call, handing: cst.Call, resetter: FunctionInfo
    ) -> Finding:
        """At the call that hands the environment to a function (or an object) that resets it: no
        fix, where its first reset takes the seed is that code's choice."""
        row = context.source.location(context.layout.span(made)[0]).row
        called = context.code(handing.func)
        method = resetter.node.name.value
        resets = (
            f"`{called}(..)` keeps the environment made on line {row}, which its `{method}()` "
            "resets"
            if resetter.owner_class is not None and method != "__init__"
            else f"`{called}(..)` resets the environment made on line {row}"
        )
        return Finding(
            handing,
            f"{resets} without `seed=`, and nothing seeds it: {_ENTROPY}",
            None,
            help="Seed its first reset before handing it on: `env.reset(seed=seed)`",
        )

    def _sample_finding(
        self,
        context: FileContext,
        sample: cst.Call,
        made: cst.Call,
        statement: Statement,
        seeded: str,
    ) -> Finding:
        """At `space.sample()`; the fix seeds `seeded` (the space as the code that makes the
        environment names it) after the environment is made."""
        space = context.code(sample.func.value)  # type: ignore[attr-defined]
        fix = None
        seed = seed_reaching(context, context.placements([made]).get(made, []))
        if seed is not None:
            line = f"{seeded}.seed({context.code(seed)})"
            fix = Fix(
                f"Seed the space after making the environment: `{line}`",
                Applicability.UNSAFE,
                (context.edits.insert_after(statement, line),),
            )
        return Finding(
            sample,
            f"`{space}.sample()` draws from the space's own generator, seeded from OS entropy "
            f"because `{space}.seed(..)` is never called (`reset(seed=..)` does not seed it), so "
            "the actions change from run to run",
            fix,
            help=_SPACE_HELP,
        )


class _Environments:
    """The environments a module makes, and what seeds them."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.index = context.index
        # Per call handing an environment on and its name there: the other module's functions it
        # reaches.
        self._reached: dict[tuple[cst.Call, str], list[tuple[FunctionInfo, set[str]]] | None] = {}
        # Per environment made in a method: what `_kept` found (asked by the resets and by the
        # samples).
        self._kept_by: dict[cst.Call, tuple[str, list[FunctionInfo], Statement] | None] = {}
        self.made = [
            (call, scope)
            for call, scope in self.index.all_calls
            if _qualified(context, call, scope) in catalog.RL_ENVIRONMENTS
        ]

    def is_procgen(self, call: cst.Call, scope: Scope) -> bool:
        if _qualified(self.context, call, scope).startswith("procgen."):
            return True
        env_id = argument(call, "id", 0)
        return isinstance(env_id, cst.SimpleString) and str(env_id.evaluated_value).startswith(
            "procgen"
        )

    def _named(self, call: cst.Call) -> tuple[str, Statement] | None:
        """The name an environment is bound to (`env = gym.make(..)`) and the binding statement."""
        statement = self.index.statement_of.get(call)
        node = statement.node if statement is not None else None
        if (
            not isinstance(node, cst.Assign)
            or len(node.targets) != 1
            or not isinstance(node.targets[0].target, cst.Name)
        ):
            return None
        return node.targets[0].target.value, statement

    def _calls_on(self, name: str, scope: Scope, method: str) -> list[cst.Call]:
        """The calls `name.method(..)` whose `name` is the one bound in `scope`."""
        bindings = self.index.bound_values(name, scope)
        return [
            call
            for call, where in self.context.calls_by_method(method)
            if isinstance(call.func.value, cst.Name)
            and call.func.value.value == name  # type: ignore[attr-defined]
            and self.index.bound_values(name, where) is bindings
        ]

    def _visible(self, call: cst.Call, scope: Scope) -> bool:
        """Whether everything that builds the environment is in view: the library's own calls, and
        module functions that seed nothing (an imported `make_env(seed)` may seed the environments
        it makes)."""
        for inner in (node for node in iter_descendants(call) if isinstance(node, cst.Call)):
            qualified = _qualified(self.context, inner, scope)
            function = self.index.resolve_local_call(inner, scope)
            if function is not None:
                if _seeds_something(function.node, "reset"):
                    return False
            elif not qualified.startswith(catalog.RL_MODULES) and not qualified.startswith(
                "builtins."
            ):
                return False
        return True

    def _escapes(self, name: str, statement: Statement) -> bool:
        """Whether the environment leaves the code that made it: returned, yielded, stored, or
        passed to a function that is not the library's (which may seed it)."""
        return escapes(
            self.index.statements_in(statement.scope),
            name,
            statement.scope,
            lambda call, scope: not self._keeps_unseeded(call, scope, name),
        )

    def _keeps_unseeded(self, call: cst.Call, scope: Scope, name: str) -> bool:
        """Whether a call given the environment `name` cannot seed it: the library's own (a
        wrapper), a module function that seeds nothing (`evaluate(env)` that only resets and steps),
        or functions of another project module that seed nothing and hand it only to each other and
        to the library."""
        if _qualified(self.context, call, scope).startswith(catalog.RL_MODULES):
            return True
        function = self.index.resolve_local_call(call, scope)
        if function is not None:
            return not _seeds_something(function.node)
        return self._elsewhere(call, scope, name) is not None

    def _elsewhere(
        self, call: cst.Call, scope: Scope, name: str
    ) -> list[tuple[FunctionInfo, set[str]]] | None:
        """The functions of another project module the environment `name` reaches through a call
        (`rl_utils.train_on_policy_agent(env, ..)` and the module's functions it hands `env` to),
        each with the names it has it under; None when one of them may seed it."""
        if (call, name) not in self._reached:
            project = self.context.settings.project
            qualified = _qualified(self.context, call, scope)
            found = (
                project.function(qualified, RESETS) if project is not None and qualified else None
            )
            self._reached[call, name] = (
                None
                if found is None
                else _reached(
                    found[0],
                    found[1],
                    {p for p, arg in bind_arguments(found[1], call) if hands_on(arg, name)},
                    set(),
                )
            )
        return self._reached[call, name]

    def _handed_to_reset(
        self, name: str, statement: Statement
    ) -> tuple[cst.Call, FunctionInfo] | None:
        """The call that hands the environment `name` to project functions (or a project class's
        methods) that reset it without a seed, and the first of them that does."""
        for other in self.index.statements_in(statement.scope):
            for call in other.calls:
                reached = (
                    self._elsewhere(call, other.scope, name)
                    if any(hands_on(arg.value, name) for arg in call.args)
                    else None
                )
                resetter = next(
                    (
                        function
                        for function, names in reached or ()
                        if any(
                            _resets_unseeded(node, names)
                            for node in iter_descendants(function.node)
                        )
                    ),
                    None,
                )
                if resetter is not None:
                    return call, resetter
        return None

    def unseeded_reset(
        self, made: cst.Call, scope: Scope
    ) -> tuple[cst.Call, FunctionInfo | None] | None:
        """The first `reset()` of an environment that is never seeded, or the call that hands it,
        never reset nor seeded here, to project functions that reset it without a seed, with the
        first of them (None: seeded, or not in view)."""
        named = self._named(made)
        if named is None or not self._visible(made, scope) or self._escapes(*named):
            return None
        name, statement = named
        resets, seeds = self._calls_on(name, scope, "reset"), self._calls_on(name, scope, "seed")
        if not resets and not seeds:
            return self._handed_to_reset(name, statement)
        seeded = any(map(_may_seed, resets)) or any(call.args for call in seeds)
        return None if seeded or not resets else (resets[0], None)

    def _kept(
        self, made: cst.Call, scope: Scope
    ) -> tuple[str, list[FunctionInfo], Statement] | None:
        """The attribute an object keeps an environment in (`self.env = gym.make(..)` in a method)
        and its class's methods, when the environment stays in them: not handed to code that may
        seed it, returned or aliased, nor touched by code outside the class
        (`agent.env.reset(seed=0)`)."""
        if made not in self._kept_by:
            self._kept_by[made] = self._find_kept(made, scope)
        return self._kept_by[made]

    def _find_kept(
        self, made: cst.Call, scope: Scope
    ) -> tuple[str, list[FunctionInfo], Statement] | None:
        statement = self.index.statement_of.get(made)
        function = (
            self.index.function_of_scope.get(statement.scope) if statement is not None else None
        )
        node = statement.node if statement is not None else None
        if (
            function is None
            or function.owner_class is None
            or not isinstance(node, cst.Assign)
            or len(node.targets) != 1
            or not isinstance(target := node.targets[0].target, cst.Attribute)
            or not is_kept(target, instance_name(function) or "", {target.attr.value})
            or not self._visible(made, scope)
        ):
            return None
        attribute = target.attr.value
        methods = methods_in_view(self.index, function.owner_class)
        if methods is None or self._touched_outside(
            attribute, function.owner_class, {method.scope for method in methods}
        ):
            return None
        for method in methods:
            name = f"{instance_name(method)}.{attribute}"
            for other in self.index.statements_in(method.scope):
                value = getattr(other.node, "value", None)
                # `self.env = Wrapper(self.env)`
                rewrapped = isinstance(other.node, cst.Assign) and any(
                    holds(t.target, name) for t in other.node.targets
                )
                if (
                    value is not None
                    and not rewrapped
                    and hands_on(value, name)
                    and not isinstance(value, cst.Call)
                ):
                    return None  # returned, yielded or aliased
                if any(
                    any(hands_on(arg.value, name) for arg in call.args)
                    and not self._keeps_unseeded(call, other.scope, name)
                    for call in other.calls
                ):
                    return None
        return attribute, methods, statement

    def _touched_outside(self, attribute: str, cls: ClassInfo, scopes: set[Scope]) -> bool:
        """Whether calls outside the class's methods use an attribute of that name
        (`agent.env.reset(seed=0)`, `evaluate(agent.env)`: they may seed the environment); another
        class's own `self.env` does not count, unless it derives from this one."""
        for call, scope in self.index.all_calls:
            if scope in scopes:
                continue
            function = self.index.function_of_scope.get(scope)
            own = (
                instance_name(function)
                if function is not None
                and function.owner_class is not None
                and not self.index.subclasses_of(function.owner_class, frozenset({cls.qualified}))
                else None
            )
            for node in (
                call.func,
                *iter_descendants(call.func),
                *(
                    inner
                    for arg in call.args
                    for inner in (arg.value, *iter_descendants(arg.value))
                ),
            ):
                if (
                    isinstance(node, cst.Attribute)
                    and node.attr.value == attribute
                    and not (
                        own is not None
                        and isinstance(node.value, cst.Name)
                        and node.value.value == own
                    )
                ):
                    return True
        return False

    def kept_unseeded_reset(self, made: cst.Call, scope: Scope) -> cst.Call | None:
        """The first `self.env.reset()` of an environment an object keeps, when nothing seeds it."""
        kept = self._kept(made, scope)
        if kept is None:
            return None
        attribute, methods, _ = kept
        names = {method.scope: f"{instance_name(method)}.{attribute}" for method in methods}
        resets = []
        for call, scope in [
            *self.context.calls_by_method("reset"),
            *self.context.calls_by_method("seed"),
        ]:
            if scope not in names or not holds(call.func.value, names[scope]):  # type: ignore[attr-defined]
                continue
            if call.func.attr.value == "seed" or _may_seed(call):  # type: ignore[attr-defined]
                return None
            resets.append(call)
        return min(resets, key=lambda call: self.context.layout.span(call)[0], default=None)

    def unseeded_samples(self) -> Iterator[tuple[cst.Call, cst.Call, Statement, str]]:
        """`env.action_space.sample()` calls whose environment is made in view and whose space is
        never seeded (also `self.env.action_space.sample()` of an object that makes or is given the
        environment), with the space as the code that makes the environment names it."""
        if any(_is_space(call.func.value) for call, _ in self.context.calls_by_method("seed")):  # type: ignore[attr-defined]
            return
        made = {}
        kept: dict[
            str, tuple[cst.Call, Statement, set[Scope], str]
        ] = {}  # attribute -> making, its names
        for call, scope in self.made:
            named = self._named(call)
            if (
                named is not None
                and self._visible(call, scope)
                and not self._seeded_by_agent(*named)
            ):
                made.setdefault(named[0], (scope, call, named[1]))
                for attribute, methods in self._given_to_objects(*named):
                    kept.setdefault(
                        attribute, (call, named[1], {m.scope for m in methods}, named[0])
                    )
            found = self._kept(call, scope)
            if found is not None:
                owner = self.context.code(found[2].node.targets[0].target)  # type: ignore[attr-defined]
                kept.setdefault(
                    found[0], (call, found[2], {method.scope for method in found[1]}, owner)
                )
        for call, scope in self.context.calls_by_method("sample"):
            space = call.func.value  # type: ignore[attr-defined]
            if (
                _is_space(space)
                and isinstance(space.value, cst.Attribute)
                and space.value.attr.value in kept
            ):
                making, statement, scopes, owner = kept[space.value.attr.value]
                function = self.index.function_of_scope.get(scope)
                if (
                    scope in scopes
                    and function is not None
                    and holds(space.value, f"{instance_name(function)}.{space.value.attr.value}")
                ):
                    yield call, making, statement, f"{owner}.{space.attr.value}"
                continue
            if (
                not _is_space(space)
                or not isinstance(space.value, cst.Name)
                or space.value.value not in made
            ):
                continue
            where, making, statement = made[space.value.value]
            if self.index.bound_values(space.value.value, scope) is self.index.bound_values(
                space.value.value, where
            ):
                yield call, making, statement, self.context.code(space)

    def _seeded_by_agent(self, name: str, statement: Statement) -> bool:
        """Whether the environment `name` is given to a library agent built with a seed, which seeds
        its spaces and resets (`A2C("MlpPolicy", env, seed=23)`: stable-baselines3's
        `set_random_seed` calls `action_space.seed(seed)` and seeds the environment)."""
        for other in self.index.statements_in(statement.scope):
            for call in other.calls:
                qualified = self.index.qualify(call.func, other.scope) or ""
                if (
                    qualified.startswith(catalog.SEEDING_AGENT_MODULES)
                    and not is_none(argument(call, "seed", None))
                    and any(hands_on(arg.value, name) for arg in call.args)
                ):
                    return True
        return False

    def _given_to_objects(
        self, name: str, statement: Statement
    ) -> Iterator[tuple[str, list[FunctionInfo]]]:
        """The attributes objects of the module's classes keep the environment `name` in
        (`Agent(env)` storing `self.env = env`), with the classes' methods, when they are all in
        view."""
        for other in self.index.statements_in(statement.scope):
            for call in other.calls:
                init = self.index.resolve_local_call(call, other.scope)
                found = (
                    kept_from(self.index, init, call, lambda arg: hands_on(arg, name))
                    if init is not None
                    else None
                )
                for attribute in found[0] if found is not None else ():
                    yield attribute, found[1]  # type: ignore[index]


def _qualified(context: FileContext, call: cst.Call, scope: Scope) -> str:
    return context.index.qualify(call.func, scope) or ""


def _is_space(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Attribute) and expr.attr.value in catalog.RL_ACTION_SPACES


def _seeds_something(function: cst.FunctionDef, *methods: str) -> bool:
    """Whether a function calls a method that can seed an environment or a space: `.seed(..)`,
    `.reset(seed=..)`, or one of `methods`."""
    for node in iter_descendants(function):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            if method == "seed" or method in methods or (method == "reset" and _may_seed(node)):
                return True
    return False


def _reached(
    index: ModuleIndex,
    function: FunctionInfo,
    names: set[str],
    seen: set[FunctionInfo],
) -> list[tuple[FunctionInfo, set[str]]] | None:
    """`function` and the functions of its module it hands the object it has as `names` to, each
    with the names it has it under (an `__init__` that keeps it as `self.env` hands it to every
    method of its class, as `self.env`); None when one of them may seed it: it seeds something, or
    hands the object to another module's function (the library's excepted)."""
    if _seeds_something(function.node):
        return None
    reached = [(function, names)]
    seen.add(function)
    for call in index.calls_by_scope.get(function.scope, ()):
        if not any(hands_on(arg.value, name) for arg in call.args for name in names):
            continue
        if (index.qualify(call.func, function.scope) or "").startswith(catalog.RL_MODULES):
            continue
        callee = index.resolve_local_call(call, function.scope)
        if callee is None or len(seen) > _MAX_HELPERS:
            return None
        if callee not in seen:
            inner = _reached(
                index,
                callee,
                {
                    parameter
                    for parameter, arg in bind_arguments(callee, call)
                    if any(hands_on(arg, name) for name in names)
                },
                seen,
            )
            if inner is None:
                return None
            reached += inner
    kept = kept_attributes(function, names)
    if kept:
        methods = methods_in_view(index, function.owner_class)  # type: ignore[arg-type]
        if methods is None:
            return None
        for method in methods:
            owner = instance_name(method)
            if method in seen or owner is None:
                continue
            inner = _reached(index, method, {f"{owner}.{attribute}" for attribute in kept}, seen)
            if inner is None:
                return None
            reached += inner
    return reached


def _resets_unseeded(node: cst.CSTNode, names: set[str]) -> bool:
    """Whether a node is `name.reset(..)` without a seed, for one of `names`."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "reset"
        and any(holds(node.func.value, name) for name in names)
        and not _may_seed(node)
    )


def _may_seed(reset: cst.Call) -> bool:
    """Whether a `reset(..)` passes a seed, or may (`reset(**kwargs)` forwards what its caller
    gives)."""
    return not is_none(argument(reset, "seed", None)) or any(arg.star for arg in reset.args)


def _seed_fix(
    context: FileContext, call: cst.Call, keyword: str, message: str | None
) -> Fix | None:
    """Pass the seed of the script's seeding to the call (None: no seed can be written there)."""
    seed = seed_reaching(context, context.placements([call]).get(call, []))
    if seed is None:
        return None
    value = context.code(seed)
    return Fix(
        message or f"Pass `{keyword}={value}`",
        Applicability.UNSAFE,
        (context.edits.keyword_edit(call, keyword, value),),
    )
