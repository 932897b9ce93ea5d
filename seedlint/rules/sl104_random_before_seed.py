"""SL104 random-before-seed: a draw runs before the seeding call that should control it."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.bindings import defined_at, names_needed, value_unused
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event, Flow, Step
from seedlint.analysis.flow import divergence, exclusive, reported_call
from seedlint.analysis.index import ModuleIndex
from seedlint.analysis.modules import shown_name
from seedlint.analysis.programs import in_test, never_named
from seedlint.analysis.seed_picks import picks_a_seed
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule


def early_draws(
    index: ModuleIndex, flow: Flow, compares: bool = False
) -> Iterator[tuple[Event, Event]]:
    """(draw, seed) pairs: a draw from a generator that a later call in the flow seeds. In code
    that `compares` (a test), a seeding repeated with the same seed later serves the comparison
    of what runs after each, and the draws before it are inputs both sides share; and only a
    seeding the test asks for (a call, a seed given) asks for reproducible values, not one an
    object does as it is built without being given a seed (`DPOTrainer(..)` seeding in its
    constructor)."""
    seeded: set[str] = set()
    events = flow.events
    for position, event in enumerate(events):
        if event.kind == "seed" and event.effect.deterministic:
            seeded |= catalog.cuda_as_one(event.generators)
        elif (
            event.kind == "draw"
            and not (event.generators & seeded)
            and not picks_a_seed(index, flow, event)  # a seed picked, whatever seeds in between
        ):
            later = next(
                (
                    e
                    for e in events[position + 1 :]
                    if e.kind == "seed"
                    and e.effect.deterministic
                    and not e.effect.assumed
                    and catalog.cuda_as_one(e.generators) & event.generators
                    and not exclusive(index, event, e)
                    and not _reseeds_in_a_loop(event, e)
                    and not (compares and _built(e))
                ),
                None,
            )
            if later is not None and not (compares and _seeded_again_alike(events, later)):
                yield event, later


def _holders(draw: Event, level: int) -> Iterator[Step]:
    """The steps whose statements hold a draw's value where the seeding's code runs: the one
    beside the seeding, and, when that is a loop or other compound, the statement in its body
    that stores the draw (`for i in range(9): idx = torch.randint(..)`)."""
    yield draw.trail[level]
    inner = next((step for step in draw.trail[level:] if step.call is not None), draw.trail[-1])
    if inner is not draw.trail[level]:
        yield inner


def _built(seed: Event) -> bool:
    """Whether a seeding is what an object does as it is built (a class's constructor), with no
    seed the test gives it (`ImplicitModel(random_state=RANDOM_STATE)` is asked to seed)."""
    return seed.effect.qualified.rsplit(".", 1)[-1][:1].isupper() and seed.effect.seed_arg is None


def _seeded_again_alike(events: list[Event], seed: Event) -> bool:
    """Whether the flow seeds the same generators with the same seed again after `seed`
    (`torch.manual_seed(42)` before the reference and again before the code under test)."""
    if seed.effect.seed_arg is None:
        return False
    after = events[events.index(seed) + 1 :]
    return any(
        e.kind == "seed"
        and e.generators == seed.generators
        and e.effect.seed_arg is not None
        and e.effect.seed_arg.deep_equals(seed.effect.seed_arg)
        for e in after
    )


def _reseeds_in_a_loop(draw: Event, seed: Event) -> bool:
    """Whether the seeding sits in a loop the draw is not in: it re-seeds for what each iteration
    draws (`torch.manual_seed(1337 + it)` before a `randperm`), not for what ran before the loop."""
    steps = seed.trail[divergence(draw, seed) : -1]
    return any(
        step.call is None and isinstance(step.statement.node, (cst.For, cst.While))
        for step in steps
    )


class RandomBeforeSeed(Rule):
    code = "SL104"
    name = "random-before-seed"
    summary = "A random draw runs before the seeding call that should control it"
    fix_availability = "unsafe"
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        reported = set()
        for flow in context.seeding_flows:
            unbuilt: bool | None = None  # a method of a class nothing builds (asked when needed)
            first_draw: dict[Event, Event] = {}
            compares = in_test(
                context, flow.root.scope if flow.root else context.index.module_scope
            )
            for draw, seed in early_draws(context.index, flow, compares):
                level = divergence(draw, seed)
                statement, seeding = draw.trail[level].statement, seed.trail[level].statement
                if any(
                    value_unused(
                        context.index,
                        holder.statement,
                        context.program is not None,
                        seeding,
                        call=holder.call,
                        project=context.settings.project,
                    )
                    for holder in _holders(draw, level)
                ):
                    continue  # the seed resets the generator: only the draw's value could matter
                if draw.generators & context.entry(flow).seeded:
                    continue  # every caller seeded it before running the flow
                if unbuilt is None:
                    unbuilt = flow.root is not None and never_named(context, flow.root.scope)
                if unbuilt:
                    break
                first_draw.setdefault(seed, draw)
                if statement not in reported:  # one finding per drawing statement
                    reported.add(statement)
                    yield self._finding(context, draw, seed, first_draw[seed])

    def _finding(self, context: FileContext, draw: Event, seed: Event, first: Event) -> Finding:
        level = divergence(draw, seed)
        call = reported_call(draw, level)
        generator = catalog.GENERATOR_LABELS[next(iter(draw.generators))]
        seeder = context.code(reported_call(seed, divergence(first, seed)).func)
        drawer = context.code(call.func) + (
            "" if call is draw.call and not draw.effect.summarised else "()"
        )
        if call is not draw.call:
            through = f" (through `{context.code(draw.call.func)}`)"
        else:
            through = (
                f" (in `{shown_name(draw.effect.qualified)}`)" if draw.effect.summarised else ""
            )
        return Finding(
            call,
            f"`{drawer}` draws from the {generator} generator{through} before `{seeder}` seeds it, "
            "so the values it gets change from run to run",
            self._fix(context, first, seed),
            help="Move the seeding call above the first random draw",
            generators=draw.generators,
        )

    def _fix(self, context: FileContext, first: Event, seed: Event) -> Fix:
        level = divergence(first, seed)
        destination, moved = first.trail[level].statement, seed.trail[level].statement
        edits = None
        if destination.block is moved.block and names_needed(context.index, moved) <= defined_at(
            context.index, first.trail[:level], destination
        ):
            edits = context.edits.move_before(moved, destination)
        if edits is None:
            return Fix(
                "Move the seeding call above the first random draw", Applicability.DISPLAY_ONLY
            )
        row = context.source.location(context.layout.span(moved.node)[0]).row
        return Fix(
            f"Move the seeding statement on {context.line_name(row)} above the first random draw",
            Applicability.UNSAFE,
            edits,
        )
