"""SL301 cudnn-benchmark-enabled: cuDNN autotuning picks algorithms that can differ between runs."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import Statement
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Rule

_MESSAGE = (
    "`torch.backends.cudnn.benchmark = True` lets cuDNN time candidate algorithms and keep the fastest, "
    "which can differ between runs, so results are not bit-for-bit reproducible"
)
_HELP = "Set `torch.backends.cudnn.benchmark = False` (the default) for reproducible runs"


class CudnnBenchmarkEnabled(Rule):
    code = "SL301"
    name = "cudnn-benchmark-enabled"
    summary = "cuDNN benchmark mode is on, so convolution algorithms can change between runs"
    fix_availability = "unsafe"
    patterns = ((b"cudnn", b"benchmark"),)

    def check(self, context: FileContext) -> Iterator[Finding]:
        index = context.index
        for statement, target, value in context.index.assignments():
            if (
                isinstance(statement.node, cst.Assign)
                and is_literal(value, "True")
                and index.qualify(target, statement.scope) == f"{catalog.CUDNN_MODULE}.benchmark"
            ):
                yield Finding(statement.node, _MESSAGE, self._assignment_fix(context, statement, target), help=_HELP)
        for call, _ in context.calls_to("builtins.setattr"):
            args = [arg.value for arg in call.args]
            if (
                len(args) == 3
                and index.qualify(args[0], index.statement_of[call].scope) == catalog.CUDNN_MODULE
                and isinstance(args[1], cst.SimpleString)
                and args[1].evaluated_value == "benchmark"
                and is_literal(args[2], "True")
            ):
                yield self._finding(context, call, args[2])
        # flags(enabled=False, benchmark=False, ...) and set_flags(_enabled=None, _benchmark=None, ...):
        # benchmark mode only matters where cuDNN is enabled.
        for qualified, prefix in ((f"{catalog.CUDNN_MODULE}.flags", ""), (f"{catalog.CUDNN_MODULE}.set_flags", "_")):
            for call, _ in context.calls_to(qualified):
                enabled = argument(call, f"{prefix}enabled", 0)
                benchmark = argument(call, f"{prefix}benchmark", 1)
                if is_literal(benchmark, "True") and (prefix or is_literal(enabled, "True")):
                    yield self._finding(context, call, benchmark)

    @staticmethod
    def _finding(context: FileContext, node: cst.CSTNode, true: cst.BaseExpression) -> Finding:
        fix = Fix("Set it to `False`", Applicability.UNSAFE, (context.replace(true, "False"),))
        return Finding(node, _MESSAGE, fix, help=_HELP)

    def _assignment_fix(self, context: FileContext, statement: Statement, target: cst.BaseExpression) -> Fix:
        """`x = True` becomes `x = False`; in `x = y = True`, `x` leaves the chain and is set on its own."""
        assign = statement.node
        if len(assign.targets) == 1:
            return Fix("Set it to `False`", Applicability.UNSAFE, (context.replace(assign.value, "False"),))
        link = next(t for t in assign.targets if t.target is target)
        edits = (context.replace(link, ""), context.insert_after(statement, f"{context.code(target)} = False"))
        return Fix("Set it to `False`", Applicability.UNSAFE, edits)
