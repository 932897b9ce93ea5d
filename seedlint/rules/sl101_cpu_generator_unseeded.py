"""SL101 cpu-generator-unseeded: CUDA is seeded, the CPU generator never is."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import START, Event
from seedlint.analysis.flow import exclusive
from seedlint.analysis.index import Statement
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule


def outside_cuda_guard(context: FileContext, event: Event) -> Statement:
    """The statement to seed beside: the seeding call's, or the `if torch.cuda.is_available()`
    around it."""
    statement = event.statement
    for step in reversed(event.trail[:-1]):
        node = step.statement.node
        if step.call is not None or not isinstance(node, cst.If):
            break
        if "is_available" not in context.code(node.test):
            break
        statement = step.statement
    return statement


class CpuGeneratorUnseeded(Rule):
    code = "SL101"
    name = "cpu-generator-unseeded"
    summary = "CUDA generators are seeded but the CPU generator is not"
    fix_availability = "safe"
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        reported: set[cst.Call] = set()
        for flow in context.seeding_flows:
            cpu_seeds = [e for e in flow.seeds() if catalog.TORCH_CPU in e.generators]
            cuda_seeds = [
                e
                for e in flow.seeds()
                if e.generators & catalog.CUDA_GENERATORS
                and catalog.TORCH_CPU not in e.generators
                # `if cuda: torch.cuda.manual_seed(s) else: torch.manual_seed(s)`: on its path
                and all(exclusive(context.index, e, cpu) for cpu in cpu_seeds)
            ]
            if not cuda_seeds or cuda_seeds[0].call in reported:
                continue
            site = context.entry(flow).unseeded_at(frozenset({catalog.TORCH_CPU}))
            if site is None:  # its callers seed the CPU generator, or may
                continue
            event = cuda_seeds[0]
            reported.add(event.call)
            callee = context.code(event.call.func)
            where = "nothing here" if site is START else "neither this code nor its caller"
            if cpu_seeds:
                other = context.code(cpu_seeds[0].call.func)
                where = f"nothing on its branch (`{other}` runs only on the other)"
            yield Finding(
                event.call,
                f"`{callee}` seeds only CUDA generators and {where} seeds the CPU generator, "
                "so CPU-side randomness (parameter init, `randperm`, shuffling, `random_split`) "
                "changes every run",
                self._fix(context, event),
                help=(
                    "Seed the CPU generator with `torch.manual_seed` (it seeds "
                    "every CUDA device too)"
                ),
                generators=frozenset({catalog.TORCH_CPU}),
            )

    def _fix(self, context: FileContext, event: Event) -> Fix | None:
        seed = event.effect.seed_arg
        if seed is None:
            return None
        reference, import_edit = context.edits.reference("torch.manual_seed", at=event)
        code = f"{reference}({context.code(seed)})"
        edits = [context.edits.insert_before(outside_cuda_guard(context, event), code)]
        if import_edit is not None:
            edits.insert(0, import_edit)
        return Fix(f"Insert `{code}`", Applicability.SAFE, tuple(edits))
