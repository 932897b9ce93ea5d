"""SL305 cublas-workspace-config: deterministic algorithms on CUDA without `CUBLAS_WORKSPACE_CONFIG`
(torch < 2.10)."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import (
    deterministic_switches,
    environment_writes,
    string_value,
)
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Probe, Rule

_VARIABLE = "CUBLAS_WORKSPACE_CONFIG"
_DETERMINISTIC_CONFIGS = (":4096:8", ":16:8")
_SET_BY_HAND = Fix(f"Set `{_VARIABLE}` to `:4096:8` or `:16:8`", Applicability.DISPLAY_ONLY)


class CublasWorkspaceConfig(Rule):
    code = "SL305"
    name = "cublas-workspace-config"
    summary = "Deterministic algorithms on CUDA without `CUBLAS_WORKSPACE_CONFIG` (torch < 2.10)"
    fix_availability = "safe"
    fixed_in_torch = (2, 10)  # the facts page: the check was there from 1.7 to about 2.9
    patterns = (
        (b"use_deterministic_algorithms", b"cuda"),
        (b"set_deterministic_debug_mode", b"cuda"),
        (b"use_deterministic_algorithms", b"DataParallel"),
        (b"set_deterministic_debug_mode", b"DataParallel"),
    )
    probe = Probe.OUTPUT_RUN_TO_RUN
    needs_cuda = True

    def check(self, context: FileContext) -> Iterator[Finding]:
        target = context.settings.target_torch_version
        if target is None or target >= self.fixed_in_torch or not context.uses_cuda:
            return
        values = [value for _, _, value, _ in environment_writes(context, _VARIABLE)]
        if any(
            string_value(value) in _DETERMINISTIC_CONFIGS or string_value(value) is None
            for value in values
        ):
            return  # set to a deterministic value, or to one seedlint cannot read
        call = next(deterministic_switches(context), None)
        if call is None:
            return
        version = ".".join(map(str, target))
        setting = "sets it to another value" if values else "never sets it"
        yield Finding(
            call,
            f"With deterministic algorithms on, torch {version} raises a RuntimeError at the "
            "first cuBLAS call on CUDA 10.2 or newer (it only warns with `warn_only=True`) "
            f"unless `{_VARIABLE}` is `:4096:8` or `:16:8` by then, and this code {setting}",
            self._fix(context, call) if not values else _SET_BY_HAND,
            help=f"Set `{_VARIABLE}=:4096:8` before the first CUDA work, or target torch >= 2.10",
        )

    @staticmethod
    def _fix(context: FileContext, call: cst.Call) -> Fix:
        environ, import_edit = context.edits.reference("os.environ")
        code = f'{environ}.setdefault("{_VARIABLE}", "{_DETERMINISTIC_CONFIGS[0]}")'
        edits = (import_edit,) if import_edit else ()
        return Fix(
            f"Insert `{code}`",
            Applicability.SAFE,
            edits + (context.edits.insert_before(context.index.statement_of[call], code),),
        )
