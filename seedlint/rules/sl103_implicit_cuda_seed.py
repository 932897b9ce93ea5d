"""SL103 implicit-cuda-seed (opt-in): `torch.manual_seed` without an explicit CUDA seeding call."""

from __future__ import annotations

from collections.abc import Iterator

from seedlint.analysis import catalog
from seedlint.analysis.arguments import seed_argument
from seedlint.analysis.context import FileContext
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule


class ImplicitCudaSeed(Rule):
    code = "SL103"
    name = "implicit-cuda-seed"
    summary = (
        "CUDA is seeded only implicitly, through `torch.manual_seed` (explicitness convention)"
    )
    default_enabled = False
    fix_availability = "safe"
    patterns = (b"manual_seed",)
    probe = Probe.OUTPUT_RUN_TO_RUN
    needs_cuda = True

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.uses_cuda or context.calls_to(*catalog.CUDA_MANUAL_SEED_ALL):
            return
        for call, _ in context.calls_to(*catalog.TORCH_MANUAL_SEED):
            yield Finding(
                call,
                "`torch.manual_seed` already seeds every CUDA device (since PyTorch 0.2); this "
                "opt-in rule only asks for an explicit `torch.cuda.manual_seed_all` beside it, "
                "as your convention requires",
                self._fix(context, call, context.index.statement_of[call]),
                help="Add `torch.cuda.manual_seed_all(seed)` after it (no change in behaviour)",
            )

    def _fix(self, context, call, statement) -> Fix | None:
        seed = seed_argument(call)
        if seed is None:
            return None
        reference, import_edit = context.edits.reference("torch.cuda.manual_seed_all")
        code = f"{reference}({context.code(seed)})"
        edits = (import_edit,) if import_edit else ()
        return Fix(
            f"Insert `{code}`",
            Applicability.SAFE,
            edits + (context.edits.insert_after(statement, code),),
        )
