"""SL110 reseeded-every-iteration: a constant seed set in a training loop, a dataset's item or a
per-epoch hook."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_none
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Effect, Event, Flow
from seedlint.analysis.flow import reported_call
from seedlint.analysis.gradients import Gradients
from seedlint.analysis.index import ModuleIndex, Scope
from seedlint.analysis.programs import in_test
from seedlint.analysis.repetition import (
    Dependence,
    Repetition,
    guarded,
    loop_guards,
    loop_trail,
    repetition_of,
    restored,
    seed_origin,
)
from seedlint.analysis.walk import written
from seedlint.diagnostics import Applicability, Fix
from seedlint.gates import SEEDING
from seedlint.rules.base import Finding, Probe, Rule

_CONSEQUENCE = {
    "loop": (
        "so every iteration replays the same random numbers (dropout "
        "masks, data order, augmentations)"
    ),
    "item": "so every item draws the same random numbers (the same crops, flips and noise)",
    "hook": "so every step or epoch after it replays the same random numbers",
    "episode": "so every episode starts from the same state and replays the same randomness",
    "some iterations": "so the random numbers drawn after it (dropout masks, data "
    "order, augmentations) repeat "
    "each time it runs",
}
_HELP = {
    "loop": "Seed once, before the loop; to evaluate with fixed "
    "randomness, run the evaluation inside "
    "`with torch.random.fork_rng():`, which restores torch's generators afterwards; or derive the "
    "seed from the loop variable (`seed + epoch`)",
    "item": "Derive the seed from the item (`seed + index`), or drop the "
    "call: DataLoader workers already seed "
    "`random`, `torch` and `np.random` with distinct values",
    "hook": "Seed once, before training; to evaluate with fixed "
    "randomness, run the evaluation inside "
    "`with torch.random.fork_rng():`, which restores torch's generators afterwards",
    "episode": (
        "Pass the seed to the first reset only, before the loop; "
        "later resets continue from that state"
    ),
}


class ReseededEveryIteration(Rule):
    code = "SL110"
    name = "reseeded-every-iteration"
    summary = (
        "A constant seed set on every iteration of a training loop, every dataset item or every "
        "epoch's hook, which replays the same random numbers each time"
    )
    fix_availability = "display-only"
    patterns = (
        *(
            (SEEDING, spelling)
            for spelling in (
                b"backward",
                b"__getitem",
                b"_step",
                b"_epoch",
                b"on_validation",
                b"on_train_batch",
                b"on_evaluate",
                b"_on_rollout",
            )
        ),
        (b"reset(", b"seed=", b"gym"),
        (b".seed(", b"gym"),
    )
    probe = Probe.REPLAY

    def check(self, context: FileContext) -> Iterator[Finding]:
        found: dict[
            cst.Call, tuple[Event, Repetition, frozenset[str]]
        ] = {}  # by the call pointed at
        gradients = Gradients(context)
        for flow in context.seeding_flows:
            for event in flow.seeds():
                if event.effect.qualified in catalog.SEEDING_CLASSES:
                    continue  # a Trainer built on each iteration starts a new run
                repetition = repetition_of(context.index, event)
                if (
                    repetition is not None
                    and repetition.kind == "loop"
                    and in_test(context, repetition.statement.scope)
                ):
                    continue  # a test's loop over cases reseeds to compare each one
                generators = (
                    self._reset_generators(context, event, repetition)
                    if repetition is not None
                    else None
                )
                if generators and _reseeded_by_iteration_first(context, flow, event, repetition):
                    continue  # `np.random.seed(epoch)` before training: only what follows repeats
                if generators and _fixes_an_evaluation(gradients, event, generators):
                    continue  # fixed evaluation episodes; what training draws from NumPy is unseen
                if generators:
                    origin = seed_origin(context.index, event)
                    call = event.trail[origin].call if origin is not None else event.call
                    first, where, seen = found.get(call, (event, repetition, frozenset()))
                    found[call] = (first, where, seen | generators)
        for call, (event, repetition, generators) in found.items():
            yield self._finding(context, event, repetition, call, generators)
        for reset, event in self._episode_resets(context):
            yield self._finding(
                context,
                event,
                Repetition("episode", 1, statement=event.trail[0].statement),
                reset,
                frozenset(),
            )

    @staticmethod
    def _episode_resets(context: FileContext) -> Iterator[tuple[cst.Call, Event]]:
        """`env.reset(seed=s)` of a Gymnasium or gym environment in a loop, with the same `s` every
        time; or, in the old gym API (before 0.26), `env.seed(s)` before each episode."""
        index = context.index
        calls = [
            (call, scope, argument(call, "seed", None))
            for call, scope in context.calls_by_method("reset")
        ] + [
            (call, scope, argument(call, "seed", 0))
            for call, scope in context.calls_by_method("seed")
        ]
        for call, scope, seed in calls:
            if is_none(seed) or not (
                (index.qualify(call.func, scope) or "").startswith(catalog.RL_MODULES)
                or _held_environment(index, call, scope)
            ):
                continue
            trail = loop_trail(index, call)
            if trail is None or guarded(index, trail, 0):
                continue
            event = Event(Effect("seed", "reset", frozenset(), seed), call, trail)
            if not Dependence(
                index, event, Repetition("loop", 1, statement=trail[0].statement)
            ).varies(seed, len(trail) - 1):
                yield call, event

    @staticmethod
    def _reset_generators(
        context: FileContext, event: Event, repetition: Repetition
    ) -> frozenset[str] | None:
        """The generators the event resets to the same state on each repetition (None: its seed may
        change)."""
        seed = event.effect.seed_arg
        if event.effect.assumed or seed is None and not event.effect.summarised:
            # a helper seedlint cannot read, or a library helper given no seed: what it does is
            # unknown
            return None
        generators = event.generators - restored(context.index, event, repetition)
        if not context.uses_cuda:
            generators -= catalog.CUDA_GENERATORS
        generators = frozenset(
            catalog.CUDA if g in catalog.CUDA_GENERATORS else g for g in generators
        )
        if seed is not None and Dependence(context.index, event, repetition).varies(
            seed, len(event.trail) - 1
        ):
            # a seed that changes, unless it is drawn from a generator the call resets
            origin = seed_origin(context.index, event)
            call = event.trail[origin].call if origin is not None else event.call
            return generators if _drawn_from_reset(context, call, generators) else None
        return generators

    @staticmethod
    def _finding(
        context: FileContext,
        event: Event,
        repetition: Repetition,
        call: cst.Call,
        generators: frozenset[str],
    ) -> Finding:
        seeds = catalog.generators_named(generators) if generators else "the environment"
        consequence = _CONSEQUENCE[repetition.kind]
        if repetition.kind in ("loop", "episode"):
            row = context.source.location(context.layout.span(repetition.statement.node)[0]).row
            loop = (
                f"{'training loop' if repetition.kind == 'loop' else 'loop'} "
                f"on {context.line_name(row)}"
            )
            tests = [
                test for test, _ in loop_guards(context.index, event.trail, repetition.start - 1)
            ]
            where = f"on every iteration of the {loop}"
            # `if epoch % 5 == 0:` lets it run in some iterations: the draws after it repeat each
            # time
            if tests:
                where, consequence = (
                    f"whenever `{context.shown(tests[0])}` holds in the {loop}",
                    _CONSEQUENCE["some iterations"],
                )
            outer = reported_call(event, repetition.start)
            if outer is not call:
                where += f" (through `{context.code(outer.func)}()`)"
        else:
            function = repetition.function
            owner = function.owner_class.qualified.rsplit(".", 1)[-1]
            method = f"`{owner}.{function.node.name.value}`"
            where = (
                f"for every item {method} returns"
                if repetition.kind == "item"
                else f"on every call of {method}"
            )
        help_text = _HELP[repetition.kind]
        draw = _drawn_from_reset(context, call, generators)
        message = (
            f"`{context.code(call.func)}` seeds {seeds} with the same value {where}, {consequence}"
            if draw is None
            else f"`{context.code(call.func)}` seeds {seeds} {where} with a seed drawn by "
            f"`{written(draw)}` from a generator it resets, so each seed is fixed by the one "
            "before it and the seeds run into a cycle that replays the same random numbers"
        )
        return Finding(
            call,
            message,
            Fix(help_text, Applicability.DISPLAY_ONLY),
            help=help_text,
            generators=generators,
        )


def _drawn_from_reset(
    context: FileContext, call: cst.Call, generators: frozenset[str]
) -> cst.Call | None:
    """The draw a seed passed to `call` was assigned from, in the same function, when it draws
    from a generator the call resets (`self.seed = random.randint(..)`, then
    `set_random_seed(self.seed)`): the next seed is then a fixed function of this one."""
    index = context.index
    scope = index.statement_of[call].scope
    passed = {
        written(arg.value) for arg in call.args if isinstance(arg.value, (cst.Name, cst.Attribute))
    }
    for statement, target, value in index.assignments():
        if (
            statement.scope is scope
            and written(target) in passed
            and isinstance(value, cst.Call)
            and (effect := context.classifier.effect(value, scope)) is not None
            and effect.kind == "draw"
            and not effect.summarised  # a library's draw, not a project helper's
            and effect.generators & generators
        ):
            return value
    return None


def _held_environment(index: ModuleIndex, call: cst.Call, scope: Scope) -> bool:
    """`self.env.reset(seed=..)` where the object keeps an environment it was given (its type
    unknown): a `reset` with a `seed=` on an attribute named for an environment."""
    func = call.func
    if index.qualify(func, scope) is not None or not isinstance(func, cst.Attribute):
        return False
    holder = func.value
    return (
        func.attr.value == "reset"
        and argument(call, "seed", None) is not None
        and isinstance(holder, cst.Attribute)
        and "env" in holder.attr.value.lower()
    )


def _reseeded_by_iteration_first(
    context: FileContext, flow: Flow, event: Event, repetition: Repetition
) -> bool:
    """Whether each iteration of the loop, before it trains, seeds the same generators again with a
    seed that changes (`np.random.seed(epoch)` before the batches, `np.random.seed(0)` before the
    evaluation episodes): the constant seeding then replays only what follows it in the
    iteration, not the training of the next."""
    if repetition.kind != "loop" or repetition.statement is None:
        return False
    trail = event.trail
    level = next(
        (k for k, step in enumerate(trail) if step.statement is repetition.statement), None
    )
    if level is None or level + 1 >= len(trail):
        return False
    held = trail[level + 1].statement
    generators = catalog.cuda_as_one(event.generators)
    for other in flow.seeds():
        if (
            other is event
            or other.effect.assumed
            or other.effect.seed_arg is None
            or len(other.trail) <= level + 1
            or other.trail[: level + 1] != trail[: level + 1]
            or not generators <= catalog.cuda_as_one(other.generators)
        ):
            continue
        first = other.trail[level + 1].statement
        if (
            first.siblings is held.siblings
            and first.position < held.position
            and not any(
                "backward" in context.code(before.node)
                for before in first.siblings[: first.position]
            )
            and Dependence(context.index, other, repetition).varies(
                other.effect.seed_arg, len(other.trail) - 1
            )
        ):
            return True
    return False


def _fixes_an_evaluation(gradients: Gradients, event: Event, generators: frozenset[str]) -> bool:
    """Whether a seeding of NumPy or `random` only (not torch's, which training surely draws from:
    its order, dropout and weights) is followed in its block by a loop that only evaluates
    (`np.random.seed(0)`, then the no-grad loop over the evaluation episodes): it fixes the
    evaluation's draws on purpose, and whether training draws from that generator after it is not
    seen."""
    if generators & catalog.TORCH_GENERATORS:
        return False
    statement = event.statement
    return any(
        isinstance(later.node, cst.For) and gradients.evaluates(later)
        for later in statement.siblings[statement.position + 1 :]
    )
