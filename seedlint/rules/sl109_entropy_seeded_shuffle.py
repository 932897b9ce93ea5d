"""SL109 entropy-seeded-shuffle: a library shuffle without a seed, seeded by OS entropy or the clock."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import unseeded
from seedlint.analysis.context import FileContext
from seedlint.analysis.generators import reusable_seed
from seedlint.analysis.libraries import STREAMED, hf_dataset
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.rules.base import SEEDING, Finding, Rule

_WEBDATASET_SEEDING = (("seed", None), ("rng", None))
_HOW = {
    "datasets": "a streamed dataset's shuffle takes its seed from OS entropy (`np.random.default_rng(None)`)",
    "webdataset": "webdataset seeds its shuffle buffer from the process id and the clock",
}


class EntropySeededShuffle(Rule):
    code = "SL109"
    name = "entropy-seeded-shuffle"
    summary = ("A streamed Hugging Face dataset's or webdataset's `shuffle()` without a seed, seeded from OS "
               "entropy or the clock")
    fix_availability = "unsafe"
    libraries = ("datasets",)
    patterns = ((b"shuffle", SEEDING),)

    def check(self, context: FileContext) -> Iterator[Finding]:
        if not context.seeding_flows:  # code that seeds nothing does not mean to be reproducible
            return
        found = {call: library for call, library in self._unseeded_shuffles(context)}
        reached = context.placements(found)
        for call, library in found.items():
            yield self._finding(context, call, library, reached.get(call, []))

    @staticmethod
    def _unseeded_shuffles(context: FileContext) -> Iterator[tuple[cst.Call, str]]:
        index = context.index
        for call, scope in index.all_calls:
            func = call.func
            name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) \
                else None
            if name != "shuffle" or any(arg.star for arg in call.args):
                continue
            qualified = index.qualify(func, scope) or ""
            if qualified.startswith("webdataset."):
                if unseeded(call, _WEBDATASET_SEEDING):
                    yield call, "webdataset"
            elif isinstance(func, cst.Attribute) and hf_dataset(index, func.value, scope) == STREAMED \
                    and unseeded(call, catalog.HF_DATASET_DRAWS["shuffle"]):
                yield call, "datasets"

    def _finding(self, context: FileContext, call: cst.Call, library: str, reaching: list) -> Finding:
        keyword = "`seed=`" if library == "datasets" else "`seed=` or `rng=`"
        return Finding(
            call,
            f"`{context.code(call.func)}` without {keyword}: {_HOW[library]}, which no seeding call reaches, "
            "so the order changes on every run",
            self._fix(context, call, library, reaching),
            help="Pass the script's seed: `seed=seed`" if library == "datasets"
            else "Pass `rng=random.Random(seed)` (or `seed=seed` on webdataset 0.2.100 and newer)",
        )

    @staticmethod
    def _fix(context: FileContext, call: cst.Call, library: str, reaching: list) -> Fix | None:
        if not reaching:
            return None
        event = reaching[0][1]
        seed = reusable_seed(context, [flow for flow, _ in reaching], event.trail[:-1], event.statement)
        if seed is None:
            return None
        edits: tuple[Edit, ...] = ()
        if library == "datasets":
            keyword = f"seed={context.code(seed)}"
        else:
            random, import_edit = context.reference("random.Random", at=event)
            keyword = f"rng={random}({context.code(seed)})"
            edits = (import_edit,) if import_edit else ()
        name, _, value = keyword.partition("=")
        given = next((arg for arg in call.args if arg.keyword is not None and arg.keyword.value == name), None)
        if given is not None:  # `rng=None`: the None is replaced
            start, end = context.positions.span(given.value)
            return Fix(f"Pass `{keyword}`", Applicability.UNSAFE, edits + (Edit(start, end, value),))
        end = context.positions.span(call.args[-1].value)[1] if call.args else context.positions.span(call)[1] - 1
        separator = ", " if call.args else ""
        return Fix(f"Pass `{keyword}`", Applicability.UNSAFE, edits + (Edit(end, end, f"{separator}{keyword}"),))
