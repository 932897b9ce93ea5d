"""SL302 cudnn-flag-typo: assigning a misspelled cuDNN flag silently does nothing."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

_MAX_DISTANCE = 2


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance, counting a swap of two neighbours as one edit."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        previous2, previous = previous, current
    return previous[-1]


class CudnnFlagTypo(Rule):
    code = "SL302"
    name = "cudnn-flag-typo"
    summary = "An assignment to a cuDNN flag that does not exist, which does nothing"
    fix_availability = "safe"
    patterns = (b"cudnn",)
    probe = Probe.OUTPUT_RUN_TO_RUN
    needs_cuda = True

    def check(self, context: FileContext) -> Iterator[Finding]:
        index = context.index
        known = catalog.CUDNN_FLAGS | catalog.CUDNN_OTHER_ATTRIBUTES
        for statement, target, _ in context.index.assignments():
            if (
                isinstance(target, cst.Attribute)
                and target.attr.value not in known
                and not target.attr.value.startswith("_")
                and index.qualify(target.value, statement.scope) == catalog.CUDNN_MODULE
            ):
                yield self._finding(context, target)

    @staticmethod
    def _finding(context: FileContext, target: cst.Attribute) -> Finding:
        wrong = target.attr.value
        close = sorted(
            flag for flag in catalog.CUDNN_FLAGS if edit_distance(wrong, flag) <= _MAX_DISTANCE
        )
        fix = None
        hint = f"the flags are {', '.join(f'`{f}`' for f in sorted(catalog.CUDNN_FLAGS))}"
        if len(close) == 1:
            fix = Fix(
                f"Rename to `{close[0]}`",
                Applicability.SAFE,
                (context.edits.replace(target.attr, close[0]),),
            )
            hint = f"did you mean `{close[0]}`?"
        return Finding(
            target,
            f"`torch.backends.cudnn` has no flag `{wrong}`: the assignment creates a new "
            "attribute and changes nothing, so cuDNN keeps its default behaviour",
            fix,
            help=hint[0].upper() + hint[1:],
        )
