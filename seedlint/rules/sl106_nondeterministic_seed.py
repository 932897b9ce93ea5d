"""SL106 nondeterministic-seed: seeding that is itself random."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.analysis.flow import is_none, seed_argument
from seedlint.diagnostics import Applicability, Fix
from seedlint.rules.base import Finding, Rule

_FIX = Fix("Seed with a fixed value (for example from a `--seed` argument)", Applicability.DISPLAY_ONLY)


class NondeterministicSeed(Rule):
    code = "SL106"
    name = "nondeterministic-seed"
    summary = "A seeding call that uses a different seed on every run"
    fix_availability = "display-only"

    def check(self, context: FileContext) -> Iterator[Finding]:
        for call, scope in context.index.all_calls:
            effect = context.classifier.effect(call, scope)
            if effect is not None and effect.kind == "reseed":
                yield self._finding(
                    call,
                    f"`{context.code(call.func)}()` reseeds with a nondeterministic value despite its name, "
                    "so every run draws different numbers",
                )
            elif effect is not None and effect.kind == "seed" and not effect.deterministic:
                yield self._finding(call, self._seed_message(context, call, effect.seed_arg))
        if context.seeding_flows:
            yield from self._unseeded_rng_objects(context)

    @staticmethod
    def _finding(call: cst.Call, message: str) -> Finding:
        return Finding(call, message, _FIX, help="Pass a fixed seed, and log it")

    @staticmethod
    def _seed_message(context: FileContext, call: cst.Call, seed: cst.BaseExpression | None) -> str:
        callee = context.code(call.func)
        if is_none(seed):
            return (f"`{callee}` without a seed (or with None) seeds from the OS entropy source or the clock, "
                    "so every run draws different numbers")
        return (f"`{callee}` gets a seed derived from the clock, the process ID, uuid, `os.urandom` or "
                "`secrets`, which differs on every run, so no run can be repeated")

    def _unseeded_rng_objects(self, context: FileContext) -> Iterator[Finding]:
        for call, _ in context.calls_to(*catalog.UNSEEDED_RNG_CONSTRUCTORS):
            if is_none(seed_argument(call)):
                yield self._finding(
                    call,
                    f"`{context.code(call.func)}()` without a seed takes fresh OS entropy, so its values "
                    "differ on every run even though this code seeds the global generators",
                )
