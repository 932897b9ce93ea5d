"""Draws that pick the seed: `if args.seed is None: args.seed = random.randint(1, 10000)`.

A program that picks a random seed when none is given, logs it and seeds with it is
reproducible from its log: the pick is meant to be random and must come before the seeding.
A draw picks a seed when the value it is stored into flows, through assignments and the
arguments of the module's own functions, into the seed a later seeding call uses.
Values are followed as dotted paths (`seed`, `args.seed`, `cfg["seed"]` as `cfg`).
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from seedlint.analysis.flow import Event, Flow, divergence
from seedlint.analysis.index import ModuleIndex, Scope, Statement, bind_arguments, dotted_name
from seedlint.analysis.walk import iter_children


def picks_a_seed(index: ModuleIndex, flow: Flow, draw: Event) -> bool:
    """Whether a draw computes the seed of a later deterministic seeding call of the flow."""
    later = flow.events[flow.events.index(draw) + 1:]
    return any(e.kind == "seed" and e.effect.deterministic and picks(index, draw, e) for e in later)


def picks(index: ModuleIndex, draw: Event, seed: Event) -> bool:
    """Whether the draw's value flows into the seed that `seed` passes."""
    if seed.effect.seed_arg is None:
        return False
    level = divergence(draw, seed)
    binding = next((step.statement for step in draw.trail[level:] if step.call is not None), None)
    scope = draw.trail[level].statement.scope
    if binding is None or binding.scope is not scope:
        return False
    inputs = _seed_paths(index, seed, level)
    if inputs is None:
        return False
    assignments = [s for s in _statements_of(index, scope) if isinstance(s.node, (cst.Assign, cst.AnnAssign, cst.AugAssign))]
    pending = inputs
    while pending:
        inputs |= pending
        pending = {path for s in assignments if _overlap(bound_paths(s.node), pending) for path in read_paths(s.node)}
        pending -= inputs
    return _overlap(bound_paths(binding.node), inputs)


def _seed_paths(index: ModuleIndex, seed: Event, level: int) -> set[str] | None:
    """The paths the seed's value is read from, as seen in the statement at `level` of its trail.

    Parameters of the module's functions on the way are replaced by what the call passes them;
    None when the seed comes from a parameter's default.
    """
    paths = read_paths(seed.effect.seed_arg)
    for step in reversed(seed.trail[level:-1]):
        if step.call is None:
            continue
        callee = index.resolve_local_call(step.call, step.statement.scope)
        if callee is None:
            return None
        arguments = dict(bind_arguments(callee, step.call))
        parameters = set(callee.scope.bindings) & {p.name.value for p in _parameters(callee.node)}
        mapped: set[str] = set()
        for path in paths:
            root, _, rest = path.partition(".")
            if root not in parameters:
                mapped.add(path)
                continue
            value = arguments.get(root)
            if value is None:
                continue  # the parameter's default
            base = dotted_name(value)
            if base is not None:
                mapped.add(f"{base}.{rest}" if rest else base)
            else:
                mapped |= read_paths(value)
        if not mapped:
            return None
        paths = mapped
    return paths


def _parameters(function: cst.FunctionDef) -> Iterator[cst.Param]:
    params = function.params
    yield from (*params.posonly_params, *params.params, *params.kwonly_params)
    for extra in (params.star_arg, params.star_kwarg):
        if isinstance(extra, cst.Param):
            yield extra


def _statements_of(index: ModuleIndex, scope: Scope) -> Iterator[Statement]:
    for block in index.statements.values():
        for statement in block:
            if statement.scope is scope:
                yield statement


def _overlap(bound: set[str], read: set[str]) -> bool:
    """Whether reading any of `read` can see a value stored into any of `bound`."""
    return any(r == b or r.startswith(b + ".") or b.startswith(r + ".") for b in bound for r in read)


def read_paths(node: cst.CSTNode) -> set[str]:
    """The dotted paths (`seed`, `args.seed`) an expression or assignment reads."""
    paths: set[str] = set()
    _collect_reads(node, paths)
    return paths


def _collect_reads(node: cst.CSTNode, paths: set[str]) -> None:
    if isinstance(node, (cst.Name, cst.Attribute)):
        dotted = dotted_name(node)
        if dotted is not None:
            paths.add(dotted)
            return
    if isinstance(node, (cst.Assign, cst.AnnAssign)):
        if node.value is not None:
            _collect_reads(node.value, paths)
        return
    if isinstance(node, cst.AugAssign):  # `x += ..` reads `x` too
        _collect_reads(node.target, paths)
        _collect_reads(node.value, paths)
        return
    if isinstance(node, cst.Arg):
        _collect_reads(node.value, paths)
        return
    for child in iter_children(node):
        _collect_reads(child, paths)


def bound_paths(node: cst.CSTNode) -> set[str]:
    """The dotted paths an assignment stores into (`cfg["seed"] = ..` stores into `cfg`)."""
    if isinstance(node, cst.Assign):
        targets = [target.target for target in node.targets]
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        targets = [node.target]
    else:
        return set()
    paths: set[str] = set()
    while targets:
        target = targets.pop()
        if isinstance(target, (cst.Tuple, cst.List)):
            targets.extend(element.value for element in target.elements)
        elif isinstance(target, cst.StarredElement):
            targets.append(target.value)
        elif isinstance(target, cst.Subscript):
            targets.append(target.value)
        elif (dotted := dotted_name(target)) is not None:
            paths.add(dotted)
    return paths
