"""Draws that pick the seed: `if args.seed is None: args.seed = random.randint(1, 10000)`.

A program that picks a random seed when none is given, logs it and seeds with it is
reproducible from its log: the pick is meant to be random and must come before the seeding.
A draw picks a seed when the value it is stored into flows, through assignments and the
arguments of the module's own functions, into the seed a later seeding call uses, or when it is
handed on as a seed by name (`variant = dict(seed=random.randint(0, 100000))`, `{"seed": ..}`):
whatever code of another module reads it back seeds with it.
"""

from __future__ import annotations

import re

import libcst as cst

from seedlint.analysis.access_paths import bound_paths, paths_overlap, read_paths
from seedlint.analysis.events import Event, Flow
from seedlint.analysis.flow import divergence
from seedlint.analysis.index import (
    ModuleIndex,
    bind_arguments,
    dotted_name,
    parameter_names,
)
from seedlint.analysis.walk import iter_descendants

# a keyword or key that names a seed: `seed`, `random_seed`, `seed_value`, `env_seed`
_SEED_NAME = re.compile(r"^(?:\w+_)?seed(?:_\w+)?$")


def picks_a_seed(index: ModuleIndex, flow: Flow, draw: Event) -> bool:
    """Whether a draw (or any call, as a "reach" event) computes the seed of a later deterministic
    seeding call of the flow, or is handed on as a seed by name."""
    if named_as_seed(draw):
        return True
    later = flow.events[flow.events.index(draw) + 1 :]
    return any(e.kind == "seed" and e.effect.deterministic and picks(index, draw, e) for e in later)


def named_as_seed(draw: Event) -> bool:
    """Whether the draw is stored under a seed's name, or made right in an argument or a dict
    entry named as a seed (`seed = random.randint(..)`, `dict(seed=random.randint(..))`,
    `{"seed": np.random.randint(..)}`)."""
    statement = draw.statement.node
    if isinstance(statement, (cst.Assign, cst.AnnAssign)) and statement.value is not None:
        targets = (
            [t.target for t in statement.targets]
            if isinstance(statement, cst.Assign)
            else [statement.target]
        )
        names = [_last_name(target) for target in targets]
        if names and all(name is not None and _SEED_NAME.match(name) for name in names):
            return True
    for node in iter_descendants(statement):
        if isinstance(node, cst.Arg) and node.keyword is not None:
            name, value = node.keyword.value, node.value
        elif isinstance(node, cst.DictElement) and isinstance(node.key, cst.SimpleString):
            name, value = node.key.evaluated_value, node.value
        else:
            continue
        if (
            isinstance(name, str)
            and _SEED_NAME.match(name)
            and any(inner is draw.call for inner in (value, *iter_descendants(value)))
        ):
            return True
    return False


def _last_name(target: cst.BaseExpression) -> str | None:
    """`seed` of `seed`, `args.seed`, `self.seed`."""
    if isinstance(target, cst.Name):
        return target.value
    return target.attr.value if isinstance(target, cst.Attribute) else None


def picks(index: ModuleIndex, draw: Event, seed: Event) -> bool:
    """Whether the draw's value flows into the seed that `seed` passes."""
    if seed.effect.seed_arg is None:
        return False
    level = divergence(draw, seed)
    binding = next((step.statement for step in draw.trail[level:] if step.call is not None), None)
    scope = draw.trail[level].statement.scope
    if binding is None or binding.scope is not scope:
        return False
    sources = _seed_sources(index, seed, level)
    if sources is None:
        return False
    inputs, given = sources
    if any(node is draw.call for value in given for node in (value, *iter_descendants(value))):
        return True  # `Buffer(size, random.randint(0, 2**31))`: drawn as it is passed
    assignments = [
        s
        for s in index.statements_in(scope)
        if isinstance(s.node, (cst.Assign, cst.AnnAssign, cst.AugAssign))
    ]
    pending = inputs
    while pending:
        inputs |= pending
        pending = {
            path
            for s in assignments
            if paths_overlap(bound_paths(s.node), pending)
            for path in read_paths(s.node)
        }
        pending -= inputs
    return paths_overlap(bound_paths(binding.node), inputs)


def _seed_sources(
    index: ModuleIndex, seed: Event, level: int
) -> tuple[set[str], list[cst.BaseExpression]] | None:
    """The paths the seed's value is read from, as seen in the statement at `level` of its trail,
    and the expressions passed there that carry it.

    Parameters of the module's functions on the way are replaced by what the call passes them;
    None when the seed comes from a parameter's default.
    """
    assert seed.effect.seed_arg is not None
    paths, given = read_paths(seed.effect.seed_arg), [seed.effect.seed_arg]
    for step in reversed(seed.trail[level:-1]):
        if step.call is None:
            continue
        callee = index.resolve_local_call(step.call, step.statement.scope)
        if callee is None:
            return None
        arguments = dict(bind_arguments(callee, step.call))
        parameters = set(callee.scope.bindings) & parameter_names(callee.node)
        mapped: set[str] = set()
        passed: list[cst.BaseExpression] = []
        for path in paths:
            root, _, rest = path.partition(".")
            if root not in parameters:
                mapped.add(path)
                continue
            value = arguments.get(root)
            if value is None:
                continue  # the parameter's default
            passed.append(value)
            base = dotted_name(value)
            if base is not None:
                mapped.add(f"{base}.{rest}" if rest else base)
            else:
                mapped |= read_paths(value)
        if not mapped and not passed:
            return None
        paths, given = mapped, passed
    return paths, given
