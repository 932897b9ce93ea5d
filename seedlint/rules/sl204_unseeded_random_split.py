"""SL204 unseeded-random-split: a split or random sampler fed by a torch generator nothing seeds."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event, Flow
from seedlint.analysis.generators import reusable_seed
from seedlint.analysis.gradients import Gradients
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.rules.base import Finding, Probe, Rule

# Each call that draws from the global CPU generator unless given `generator=`, and the
# position of `generator` among its parameters.
_SPLIT_GENERATOR_POSITION = {
    "torch.utils.data.random_split": 2,
    "torch.utils.data.dataset.random_split": 2,
}
_SAMPLER_GENERATOR_POSITION = {
    "torch.utils.data.RandomSampler": 3,
    "torch.utils.data.sampler.RandomSampler": 3,
    "torch.utils.data.SubsetRandomSampler": 1,
    "torch.utils.data.sampler.SubsetRandomSampler": 1,
    "torch.utils.data.WeightedRandomSampler": 3,
    "torch.utils.data.sampler.WeightedRandomSampler": 3,
}
_GENERATOR_POSITION = {**_SPLIT_GENERATOR_POSITION, **_SAMPLER_GENERATOR_POSITION}
_LOADER_SAMPLER_POSITION = 3  # DataLoader(dataset, batch_size, shuffle, sampler, ...)


class UnseededRandomSplit(Rule):
    code = "SL204"
    name = "unseeded-random-split"
    summary = "`random_split` or a random sampler draws from a torch generator that nothing seeds"
    fix_availability = "unsafe"
    patterns = (b"random_split", b"RandomSampler")
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        index = context.index
        candidates = [
            call
            for call, scope in context.calls_to(*_GENERATOR_POSITION)
            if not any(arg.star for arg in call.args)
            and argument(call, "generator", _GENERATOR_POSITION[index.qualify(call.func, scope)])
            is None
        ]
        reached = context.placements(candidates)
        cpu_seeded_somewhere = any(
            catalog.TORCH_CPU in flow.seeded_generators() for flow in context.seeding_flows
        )
        # Not reached by seeding code: flagged only where the file, run as a script, makes the call.
        # A library function nothing here calls is left to its callers, who may seed first.
        scripted = context.run_by_module_body(call for call in candidates if call not in reached)
        gradients = Gradients(context)
        for call in candidates:
            if _orders_evaluation_only(context, gradients, call):
                continue  # the order changes only how an evaluation's sums round
            reaching = reached.get(call, [])
            if reaching:
                # Seeded before the call, or after it: then SL104 reports a split (a draw made
                # too early), and a sampler only draws when iterated, which usually comes later.
                if any(
                    catalog.TORCH_CPU in flow.seeded_generators()
                    or context.entry(flow).unseeded_at(frozenset({catalog.TORCH_CPU})) is None
                    for flow, _ in reaching
                ):
                    continue  # seeded here, or by every caller, or may be by a caller unseen
                if any(
                    flow.first_unseeded_draw(catalog.TORCH_GENERATORS) is event
                    for flow, event in reaching
                ):
                    continue  # SL105 reports it: the first torch draw of a flow that seeds no torch
            elif cpu_seeded_somewhere or call not in scripted:
                continue
            yield self._finding(context, call, reaching)

    def _finding(
        self, context: FileContext, call: cst.Call, reaching: list[tuple[Flow, Event]]
    ) -> Finding:
        callee = context.code(call.func)
        split = (
            context.index.qualify(call.func, context.index.statement_of[call].scope)
            in _SPLIT_GENERATOR_POSITION
        )
        what = "the split" if split else "the order it samples"
        return Finding(
            call,
            f"`{callee}` without `generator=` draws from the global torch CPU generator, which "
            f"nothing seeds before it, so {what} changes on every run",
            self._fix(context, call, reaching),
            help=(
                "Pass `generator=torch.Generator().manual_seed(seed)`, or "
                "call `torch.manual_seed(seed)` first"
            ),
            generators=frozenset({catalog.TORCH_CPU}),
        )

    @staticmethod
    def _fix(
        context: FileContext, call: cst.Call, reaching: list[tuple[Flow, Event]]
    ) -> Fix | None:
        if not reaching or not call.args:
            return None
        event = reaching[0][1]
        seed = reusable_seed(
            context, [flow for flow, _ in reaching], event.trail[:-1], event.statement
        )
        if seed is None:
            return None
        generator, import_edit = context.edits.reference("torch.Generator", at=event)
        keyword = f"generator={generator}().manual_seed({context.code(seed)})"
        end = context.layout.span(call.args[-1].value)[1]
        edits = ((import_edit,) if import_edit else ()) + (Edit(end, end, f", {keyword}"),)
        return Fix(f"Pass `{keyword}`", Applicability.UNSAFE, edits)


def _orders_evaluation_only(context: FileContext, gradients: Gradients, sampler: cst.Call) -> bool:
    """Whether a sampler only orders evaluation passes: the loader given it is iterated, in the
    code that builds it, only by loops that evaluate (`Gradients.evaluates`)."""
    index = context.index
    scope = index.statement_of[sampler].scope
    if index.qualify(sampler.func, scope) not in _SAMPLER_GENERATOR_POSITION:
        return False
    given = [sampler]
    statement = index.statement_of[sampler]
    node = statement.node
    if isinstance(node, cst.Assign) and node.value is sampler and len(node.targets) == 1:
        given.append(node.targets[0].target)
    loaders = []
    for call, call_scope in context.calls_to(*catalog.DATA_LOADERS):
        passed = argument(call, "sampler", _LOADER_SAMPLER_POSITION)
        if (
            call_scope is scope
            and passed is not None
            and any(
                passed is item or (isinstance(item, cst.Name) and _is_name(passed, item.value))
                for item in given
            )
        ):
            holder = index.statement_of[call].node
            if not (isinstance(holder, cst.Assign) and holder.value is call):
                return False  # handed on as it is made: not followed
            loaders += [target.target for target in holder.targets]
    names = {loader.value for loader in loaders if isinstance(loader, cst.Name)}
    if not loaders or len(names) != len(loaders):
        return False
    loops = [
        loop
        for loop in index.statements_in(scope)
        if isinstance(loop.node, cst.For)
        and any(_is_name(node, name) for node in _iterated(loop.node.iter) for name in names)
    ]
    return bool(loops) and all(gradients.evaluates(loop) for loop in loops)


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _iterated(expression: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """What a `for` over `expression` iterates: it, and what `enumerate(..)`/`tqdm(..)` wrap."""
    yield expression
    if isinstance(expression, cst.Call):
        for arg in expression.args:
            yield from _iterated(arg.value)
