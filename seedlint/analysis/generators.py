"""User-made `torch.Generator`s that are never seeded, and seeds a fix can reuse.

Shared by SL102(c) and SL107 (generators never given a seed) and SL204 (splits and samplers
that draw from an unseeded global generator).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import seed_argument
from seedlint.analysis.bindings import defined_at, read_names
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import Event, Flow, Step
from seedlint.analysis.index import Scope, Statement, dotted_name
from seedlint.analysis.instances import escapes
from seedlint.analysis.walk import iter_descendants

# Methods that give a generator a state of the caller's choosing. `seed()` gives it a random one,
# which is SL106's finding, not a generator left at its constant start.
_STATE_SETTERS = frozenset({"manual_seed", "set_state", "graphsafe_set_state", "seed"})
# A generator seeded through the object that holds it (`loader.sampler.generator.manual_seed(..)`).
_HELD_SPELLING = ".generator."
_HELD_SEEDING = re.compile(r"\w\.generator\s*\.\s*(?:manual_seed|set_state)\s*\(")
# Callees a generator can be handed to without being seeded there.
_NON_SEEDING_CALLEES = ("torch.", "builtins.")


# ----------------------------------------------------------------- unseeded generators
def unseeded_generators(context: FileContext) -> Iterator[cst.Call]:
    """`torch.Generator(..)` calls whose generator this file never seeds nor gives a state.

    Only two shapes are judged: `g = torch.Generator(..)` (also `self.g = ...`), unless some
    `g.manual_seed(..)`/`g.set_state(..)`/`g.seed()` exists or `g` goes where it may be seeded
    (see `_escapes`); and `torch.Generator(..)` written straight into a torch call
    (`DataLoader(.., generator=torch.Generator())`). A generator made anywhere else may be seeded
    where it goes, so it is left alone.
    """
    setters = [
        call.func.value
        for call, _ in context.index.all_calls
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in _STATE_SETTERS
    ]
    chained = set(setters)
    given_state = {dotted_name(receiver) for receiver in setters}
    seeded_where_held: bool | None = None  # found once, when needed
    for call, _ in context.calls_to(*catalog.GENERATOR_CONSTRUCTORS):
        if call in chained:
            continue
        statement = context.index.statement_of[call]
        holder = _holder(statement, call)
        name = dotted_name(holder) if holder is not None else None
        if holder is not None and (
            name is None or name in given_state or _escapes(context, statement, name)
        ):
            continue
        if holder is None and not _written_into_torch_call(context, statement, call):
            continue
        if _handed_to_torch(context, statement, call, name):
            if seeded_where_held is None:
                seeded_where_held = _seeds_held_generators(context)
            if seeded_where_held:
                continue  # `loader.sampler.generator.manual_seed(seed)` may be seeding it
        yield call


def _handed_to_torch(
    context: FileContext, statement: Statement, call: cst.Call, name: str | None
) -> bool:
    """Whether the generator is given to a torch call (a loader or a sampler keeps it as its
    `generator` attribute): written into one, or its holder `name` passed to one."""
    if name is None:
        return True
    index = context.index
    return any(
        any(dotted_name(arg.value) == name for arg in other.args)
        and (index.qualify(other.func, scope) or "").startswith("torch.")
        for other, scope in index.all_calls
        if scope.within(statement.scope)
    )


def _seeds_held_generators(context: FileContext) -> bool:
    """Whether the file or a project file (which a script may import, through `sys.path` too)
    seeds a generator through the object holding it
    (`self.train_loader.sampler.generator.manual_seed(seed)` in a trainer's `set_seed`): which
    generator that is, the analysis cannot tell."""
    if _HELD_SEEDING.search(context.source.text):
        return True
    project = context.settings.project
    if project is None:
        return False
    return next(project.files_matching(_HELD_SPELLING, _HELD_SEEDING), None) is not None


def on_cuda(call: cst.Call) -> bool:
    """Whether a `torch.Generator(..)` call names a CUDA device."""
    device = seed_argument(call, "device")
    if device is None:
        return False
    return any(
        isinstance(node, cst.SimpleString) and str(node.evaluated_value).startswith("cuda")
        for node in (device, *iter_descendants(device))
    )


def _holder(statement: Statement, call: cst.Call) -> cst.BaseExpression | None:
    """`g` in `g = call` or `g: T = call` (a name or an attribute, one target)."""
    node = statement.node
    if isinstance(node, cst.Assign) and node.value is call and len(node.targets) == 1:
        target = node.targets[0].target
    elif isinstance(node, cst.AnnAssign) and node.value is call:
        target = node.target
    else:
        return None
    return target if isinstance(target, (cst.Name, cst.Attribute)) else None


def _escapes(context: FileContext, statement: Statement, name: str) -> bool:
    """Whether the generator held in `name` goes where it may be seeded: handed to a call outside
    torch, stored under another name (`self.g = g`, `h = g`), or returned from its function."""
    index = context.index
    statements = [other for block in index.statements.values() for other in block]
    return escapes(
        statements,
        name,
        statement.scope,
        lambda call, scope: not _non_seeding(index.qualify(call.func, scope)),
        _is_or_lists,
        aliases=True,
    )


def _is_or_lists(value: cst.CSTNode, name: str) -> bool:
    """Whether an expression is the generator held in `name`, or a tuple or list with it as an
    element."""
    elements = value.elements if isinstance(value, (cst.Tuple, cst.List)) else ()
    return any(
        dotted_name(item) == name for item in (value, *(element.value for element in elements))
    )


def _written_into_torch_call(context: FileContext, statement: Statement, call: cst.Call) -> bool:
    """Whether `call` is written straight as an argument of a torch call."""
    return any(
        any(arg.value is call for arg in outer.args)
        and (context.index.qualify(outer.func, statement.scope) or "").startswith("torch.")
        for outer in statement.calls
    )


def _non_seeding(qualified: str | None) -> bool:
    return qualified is not None and qualified.startswith(_NON_SEEDING_CALLEES)


# ------------------------------------------------------------------------ seeds to reuse
def reusable_seed(
    context: FileContext, flows: Iterable[Flow], trail: tuple[Step, ...], statement: Statement
) -> cst.BaseExpression | None:
    """The seed of a torch seeding call in `flows` that can be written as is at `statement`.

    Every name it reads must be bound before `statement` (reached through `trail`) and mean
    there what it means at the seeding call.
    """
    available = defined_at(context.index, trail, statement)
    for flow in flows:
        for event in flow.seeds():
            seed = event.effect.seed_arg
            if seed is None or not event.generators & catalog.TORCH_GENERATORS:
                continue
            names = read_names(seed)
            if names <= available and all(
                _binding_scope(name, event.statement.scope) is _binding_scope(name, statement.scope)
                for name in names
            ):
                return seed
    return None


def seed_reaching(
    context: FileContext, reaching: list[tuple[Flow, Event]]
) -> cst.BaseExpression | None:
    """The seed of the seeding flows that reach a call (its `placements`), written so that it can be
    passed at the call (None: no such seed)."""
    if not reaching:
        return None
    event = reaching[0][1]
    return reusable_seed(context, [flow for flow, _ in reaching], event.trail[:-1], event.statement)


def _binding_scope(name: str, scope: Scope) -> Scope | None:
    """The scope whose binding of `name` code in `scope` reads (None: a builtin or unbound)."""
    current: Scope | None = scope
    while current is not None:
        if name in current.bindings and (current is scope or current.kind != "class"):
            return current
        current = current.parent
    return None
