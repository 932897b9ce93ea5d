"""SL109 entropy-seeded-shuffle: a library shuffle without a seed, seeded by OS entropy or the
clock."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import callee_name, unseeded
from seedlint.analysis.context import FileContext
from seedlint.analysis.generators import seed_reaching
from seedlint.analysis.libraries import STREAMED, hf_dataset
from seedlint.diagnostics import Applicability, Fix
from seedlint.gates import SEEDING
from seedlint.rules.base import Finding, Probe, Rule

_WEBDATASET_SEEDING = (("seed", None), ("rng", None))
_HOW = {
    "datasets": (
        "a streamed dataset's shuffle takes its seed from OS entropy "
        "(`np.random.default_rng(None)`)"
    ),
    "webdataset": "webdataset seeds its shuffle buffer from the process id and the clock",
}


class EntropySeededShuffle(Rule):
    code = "SL109"
    name = "entropy-seeded-shuffle"
    summary = (
        "A streamed Hugging Face dataset's or webdataset's `shuffle()` without a seed, seeded "
        "from OS entropy or the clock"
    )
    fix_availability = "unsafe"
    libraries = ("datasets",)
    patterns = ((b"shuffle", SEEDING),)
    probe = Probe.OUTPUT_RUN_TO_RUN

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
            name = callee_name(func)
            if name != "shuffle" or any(arg.star for arg in call.args):
                continue
            qualified = index.qualify(func, scope) or ""
            if qualified.startswith("webdataset."):
                if unseeded(call, _WEBDATASET_SEEDING):
                    yield call, "webdataset"
            elif (
                isinstance(func, cst.Attribute)
                and hf_dataset(index, func.value, scope) == STREAMED
                and unseeded(call, catalog.HF_DATASET_DRAWS["shuffle"])
            ):
                yield call, "datasets"

    def _finding(
        self, context: FileContext, call: cst.Call, library: str, reaching: list
    ) -> Finding:
        keyword = "`seed=`" if library == "datasets" else "`seed=` or `rng=`"
        return Finding(
            call,
            f"`{context.code(call.func)}` without {keyword}: {_HOW[library]}, which no seeding "
            "call reaches, so the order changes on every run",
            self._fix(context, call, library, reaching),
            help="Pass the script's seed: `seed=seed`"
            if library == "datasets"
            else "Pass `rng=random.Random(seed)` (or `seed=seed` on webdataset 0.2.100 and newer)",
        )

    @staticmethod
    def _fix(context: FileContext, call: cst.Call, library: str, reaching: list) -> Fix | None:
        seed = seed_reaching(context, reaching)
        if seed is None:
            return None
        if library == "datasets":
            name, value, edits = "seed", context.code(seed), ()
        else:
            random, import_edit = context.edits.reference("random.Random", at=reaching[0][1])
            name, value, edits = (
                "rng",
                f"{random}({context.code(seed)})",
                (import_edit,) if import_edit else (),
            )
        return Fix(
            f"Pass `{name}={value}`",
            Applicability.UNSAFE,
            edits + (context.edits.keyword_edit(call, name, value),),
        )
