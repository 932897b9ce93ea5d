"""SL102 cuda-seeding-gap: CUDA is used but some CUDA generator is left unseeded."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event
from seedlint.analysis.generators import on_cuda, unseeded_generators
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule


class CudaSeedingGap(Rule):
    code = "SL102"
    name = "cuda-seeding-gap"
    summary = "CUDA is used but not every CUDA generator is seeded"
    fix_availability = "safe"
    probe = Probe.OUTPUT_RUN_TO_RUN
    needs_cuda = True

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.seeding_flows or not context.uses_cuda:
            return
        reported: set[cst.Call] = set()
        for flow in context.seeding_flows:
            torch_seeds = [e for e in flow.seeds() if e.generators & catalog.TORCH_GENERATORS]
            seeded = flow.seeded_generators()
            if not torch_seeds or catalog.CUDA in seeded:
                continue
            if context.entry(flow).unseeded_at(catalog.CUDA_GENERATORS) is None:
                continue  # its callers seed CUDA, or may
            if all(e.effect.qualified in catalog.CPU_GENERATOR_SEEDERS for e in torch_seeds):
                event, finding = torch_seeds[0], self._cpu_only(context, torch_seeds[0])
            elif context.drives_several_gpus:
                current = [e for e in torch_seeds if e.effect.qualified in catalog.CUDA_MANUAL_SEED]
                if not current:
                    continue
                event, finding = current[0], self._current_device_only(context, current[0])
            else:
                continue
            if event.call not in reported:
                reported.add(event.call)
                yield finding
        yield from self._unseeded_cuda_generators(context)

    def _replacement(self, context: FileContext, event: Event, qualified: str) -> Fix:
        reference, import_edit = context.edits.reference(qualified, at=event)
        edits = (import_edit,) if import_edit else ()
        return Fix(
            f"Use `{reference}`",
            Applicability.SAFE,
            edits + (context.edits.replace(event.call.func, reference),),
        )

    def _cpu_only(self, context: FileContext, event: Event) -> Finding:
        return Finding(
            event.call,
            f"`{context.code(event.call.func)}` seeds only the CPU generator, so the CUDA "
            "generators this code uses start from a random state and CUDA randomness changes "
            "every run",
            self._replacement(context, event, "torch.manual_seed"),
            help="Use `torch.manual_seed`, which seeds the CPU generator and every CUDA device",
            generators=frozenset({catalog.CUDA}),
        )

    def _current_device_only(self, context: FileContext, event: Event) -> Finding:
        return Finding(
            event.call,
            f"`{context.code(event.call.func)}` seeds only the current CUDA device, but this "
            "process drives several GPUs, so the other devices' generators start from a random "
            "state",
            self._replacement(context, event, "torch.cuda.manual_seed_all"),
            help="Use `torch.cuda.manual_seed_all` (or `torch.manual_seed`) to seed every device",
            generators=frozenset({catalog.CUDA}),
        )

    def _unseeded_cuda_generators(self, context: FileContext) -> Iterator[Finding]:
        for call in unseeded_generators(context):
            if on_cuda(call):
                yield Finding(
                    call,
                    "this CUDA `torch.Generator` is never seeded with `.manual_seed(..)`: it "
                    "starts from a fixed constant and ignores `torch.manual_seed`, so changing "
                    "the seed does not change its draws",
                    help="Call `.manual_seed(seed)` on the generator after creating it",
                    generators=frozenset({catalog.TORCH_OBJECT}),
                )
