"""SL107 generator-ignores-seed: a `torch.Generator()` never seeded, in code that seeds."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event, Flow
from seedlint.analysis.generators import on_cuda, reusable_seed, unseeded_generators
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.gates import SEEDING
from seedlint.rules.base import Finding, Probe, Rule


class GeneratorIgnoresSeed(Rule):
    code = "SL107"
    name = "generator-ignores-seed"
    summary = "A `torch.Generator()` is never seeded, so it ignores the script's seed"
    fix_availability = "unsafe"
    patterns = ((b"Generator", SEEDING),)
    probe = Probe.SEED_SENSITIVITY

    def check(self, context: FileContext) -> Iterator[Finding]:
        # CUDA ones: SL102
        generators = [call for call in unseeded_generators(context) if not on_cuda(call)]
        if not generators or not context.seeding_flows:
            return
        reached = context.placements(generators)
        for call in generators:
            yield Finding(
                call,
                f"`{context.code(call.func)}()` is never seeded with `.manual_seed(..)`: it "
                "starts from a fixed constant and ignores the script's seed, so changing the "
                "seed does not change its draws",
                self._fix(context, call, reached.get(call, [])),
                help="Seed it from the script's seed: `torch.Generator().manual_seed(seed)`",
                generators=frozenset({catalog.TORCH_OBJECT}),
            )

    @staticmethod
    def _fix(
        context: FileContext, call: cst.Call, reaching: list[tuple[Flow, Event]]
    ) -> Fix | None:
        """Chain `.manual_seed(seed)`, with the seed of a flow reaching it first, else of any
        flow."""
        flows = [flow for flow, _ in reaching] + context.seeding_flows
        event = reaching[0][1] if reaching else None
        trail = event.trail[:-1] if event is not None else ()
        seed = reusable_seed(context, flows, trail, context.index.statement_of[call])
        if seed is None:
            return None
        chained = f".manual_seed({context.code(seed)})"
        end = context.layout.span(call)[1]
        return Fix(f"Chain `{chained}`", Applicability.UNSAFE, (Edit(end, end, chained),))
