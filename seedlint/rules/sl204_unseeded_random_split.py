"""SL204 unseeded-random-split: a split or random sampler fed by a torch generator nothing seeds."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument
from seedlint.analysis.bindings import bound_by, read_names, value_unused
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event, Flow
from seedlint.analysis.generators import reusable_seed
from seedlint.analysis.gradients import Gradients
from seedlint.analysis.index import ModuleIndex, Scope, Statement, bind_arguments
from seedlint.analysis.programs import imported_elsewhere, seeded_by_imports
from seedlint.analysis.walk import written
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.files import display_path, is_test
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
_MAX_DEPTH = 4  # how many returns and calls a loader is followed through


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
            if _orders_no_training(context, gradients, call):
                continue  # the order changes only how an evaluation's sums round, or nothing
            statement = index.statement_of[call]
            if _bound_again(statement) and value_unused(
                index,
                statement,
                never_seeded=True,
                call=call,
                project=context.settings.project,
            ):
                continue  # bound, then bound again before any use or only shown (a notebook's
                # split looked at and redone with other sizes in a later cell)
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
            elif cpu_seeded_somewhere:
                continue
            elif call not in scripted:
                # a library function: judged in the programs of other modules that call it
                programs = _unseeded_programs_calling(context, call)
                if programs:
                    yield self._finding(context, call, [], programs)
                continue
            yield self._finding(context, call, reaching)

    def _finding(
        self,
        context: FileContext,
        call: cst.Call,
        reaching: list[tuple[Flow, Event]],
        programs: Sequence[Path] = (),
    ) -> Finding:
        callee = context.code(call.func)
        split = (
            context.index.qualify(call.func, context.index.statement_of[call].scope)
            in _SPLIT_GENERATOR_POSITION
        )
        what = "the split" if split else "the order it samples"
        where = (
            f" in `{display_path(programs[0])}`"
            + (f" and {len(programs) - 1} more" if len(programs) > 1 else "")
            + ", which runs it"
            if programs
            else ""
        )
        return Finding(
            call,
            f"`{callee}` without `generator=` draws from the global torch CPU generator, which "
            f"nothing seeds before it{where}, so {what} changes on every run",
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


def _unseeded_programs_calling(context: FileContext, call: cst.Call) -> list[Path]:
    """The programs of other modules that run the module function making `call` and seed
    nothing (nor do the project modules they import): each of its callers must be one, and must
    run the call from the program's own code (a test or another library calling it: silent)."""
    index, project = context.index, context.settings.project
    function = index.function_of_scope.get(index.statement_of[call].scope)
    if (
        project is None
        or function is None
        or function.owner_class is not None
        or _loader_returned(context, call)
    ):
        return []
    programs = []
    for path, _, caller_call in project.calls_from_other_modules(
        index, function, gate=None, faithful=True
    ):
        caller = FileContext.of_project_file(path, context.settings, faithful=True)
        if (
            caller is None
            or caller_call not in caller.index.statement_of
            or is_test(path, caller.source.text)
            or caller.seeding_flows
            or caller_call not in caller.calls_run
            or seeded_by_imports(caller)
            or imported_elsewhere(caller)
        ):
            return []
        programs.append(path)
    return programs


def _bound_again(statement: Statement) -> bool:
    """Whether the names a split is bound to are all bound again later in its block (`train_set,
    val_set = random_split(..)`, redone with other sizes in a later cell)."""
    names = set(bound_by(statement))
    return bool(names) and any(
        names <= set(bound_by(later)) for later in statement.siblings[statement.position + 1 :]
    )


def _loader_returned(context: FileContext, sampler: cst.Call) -> bool:
    """Whether a sampler's loader is returned to the caller (`return train_loader, val_loader`),
    where whether training or only evaluation iterates it is not seen here."""
    index = context.index
    loaders = {
        written(target.target)
        for _, holder in _loaders_given(context, sampler)
        if isinstance(holder, cst.Assign)
        for target in holder.targets
    }
    return any(
        isinstance(statement.node, cst.Return)
        and statement.node.value is not None
        and read_names(statement.node.value) & loaders
        for statement in index.statements_in(index.statement_of[sampler].scope)
    )


def _loaders_given(context: FileContext, sampler: cst.Call) -> list[tuple[cst.Call, cst.CSTNode]]:
    """The `DataLoader(..)` calls of the sampler's scope that are given it (`sampler=`, itself or
    the name it is bound to), each with the statement that holds the call. A `DataLoader`
    however it is imported (`from data_loader import *` re-exporting torch's)."""
    index = context.index
    statement = index.statement_of[sampler]
    given: list[cst.CSTNode] = [sampler]
    node = statement.node
    if isinstance(node, cst.Assign) and node.value is sampler and len(node.targets) == 1:
        given.append(node.targets[0].target)
    return [
        (call, index.statement_of[call].node)
        for call, call_scope in context.calls_by_name("DataLoader")
        if call_scope is statement.scope
        and (passed := argument(call, "sampler", _LOADER_SAMPLER_POSITION)) is not None
        and any(
            passed is item or (isinstance(item, cst.Name) and _is_name(passed, item.value))
            for item in given
        )
    ]


def _orders_no_training(context: FileContext, gradients: Gradients, sampler: cst.Call) -> bool:
    """Whether a sampler only orders evaluation passes, or nothing: the loader given it is
    iterated, in the code that builds it, only by loops that evaluate (`Gradients.evaluates`), or
    by none at all where every read of it is followed (a loader nothing iterates draws no order;
    not a global of a module other files import)."""
    index = context.index
    scope = index.statement_of[sampler].scope
    if index.qualify(sampler.func, scope) not in _SAMPLER_GENERATOR_POSITION:
        return False
    loaders = []
    for call, holder in _loaders_given(context, sampler):
        if not (isinstance(holder, cst.Assign) and holder.value is call):
            return False  # handed on as it is made: not followed
        loaders += [target.target for target in holder.targets]
    names = {loader.value for loader in loaders if isinstance(loader, cst.Name)}
    if not loaders or len(names) != len(loaders):
        return False
    loops: list[Statement] = []
    if not all(_iterations(index, name, scope, loops, 0) for name in names):
        return False
    if not loops:
        return scope is not index.module_scope or not imported_elsewhere(context)
    return all(gradients.evaluates(loop) for loop in loops)


def _iterations(
    index: ModuleIndex, name: str, scope: Scope, loops: list[Statement], depth: int
) -> bool:
    """Collect into `loops` the loops that iterate what `name` holds in `scope`, following it where
    it goes in the module: returned (`return train_loader, test_loader`, unpacked by the caller)
    or passed to a function (its parameter). False when it goes anywhere else (stored, handed to
    code not followed): then not every iteration is known."""
    if depth > _MAX_DEPTH:
        return False
    for statement in index.statements_in(scope):
        node = statement.node
        if not any(name in read_names(part) for part in _own_parts(node)):
            continue
        if isinstance(node, cst.For) and any(_is_name(n, name) for n in _iterated(node.iter)):
            loops.append(statement)
            continue
        if isinstance(node, cst.Return):
            if not _returned_to(index, statement, name, loops, depth):
                return False
            continue
        for call in statement.calls:
            callee = index.resolve_local_call(call, statement.scope)
            passed = (
                [p for p, value in bind_arguments(callee, call) if _is_name(value, name)]
                if callee
                else []
            )
            if callee is None and any(_is_name(arg.value, name) for arg in call.args):
                if index.qualify(call.func, statement.scope) != "builtins.len":
                    return False
            if not all(_iterations(index, p, callee.scope, loops, depth + 1) for p in passed):
                return False
        if not isinstance(node, (cst.Expr, cst.Assign)) or any(
            _is_name(target.target, name) for target in getattr(node, "targets", ())
        ):
            return False  # bound again, or read by a statement not followed
    return True


def _own_parts(node: cst.CSTNode) -> list[cst.CSTNode]:
    """What a statement evaluates itself: a compound statement's header, not its body."""
    if isinstance(node, cst.For):
        return [node.iter]
    if isinstance(node, (cst.If, cst.While)):
        return [node.test]
    if isinstance(node, cst.With):
        return list(node.items)
    if isinstance(node, (cst.Try, cst.FunctionDef, cst.ClassDef)):
        return []
    return [node]


def _returned_to(
    index: ModuleIndex, statement: Statement, name: str, loops: list[Statement], depth: int
) -> bool:
    """Follow a loader a function returns (alone or at a place of a tuple) to the names its callers
    in the module unpack it into."""
    value = statement.node.value
    positions = (
        [None]
        if _is_name(value, name)
        else [k for k, e in enumerate(value.elements) if _is_name(e.value, name)]
        if isinstance(value, cst.Tuple)
        else []
    )
    function = index.function_of_scope.get(statement.scope)
    if not positions or function is None:
        return False
    callers = [
        (call, scope)
        for call, scope in index.all_calls
        if index.resolve_local_call(call, scope) is function
    ]
    for call, scope in callers:
        holder = index.statement_of[call].node
        if not (
            isinstance(holder, cst.Assign) and holder.value is call and len(holder.targets) == 1
        ):
            return False
        target = holder.targets[0].target
        for position in positions:
            if position is None:
                received = target
            elif isinstance(target, cst.Tuple) and position < len(target.elements):
                received = target.elements[position].value
            else:
                return False
            if not isinstance(received, cst.Name) or not _iterations(
                index, received.value, scope, loops, depth + 1
            ):
                return False
    return bool(callers)


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _iterated(expression: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """What a `for` over `expression` iterates: it, and what `enumerate(..)`/`tqdm(..)` wrap."""
    yield expression
    if isinstance(expression, cst.Call):
        for arg in expression.args:
            yield from _iterated(arg.value)
