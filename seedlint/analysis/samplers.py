"""Functions that hand out a shuffling `DistributedSampler`: returned itself, inside the
`DataLoader` they build, or in the keyword arguments they build for one (`{"sampler":
DistributedSampler(ds), "batch_size": 8}`, given as `DataLoader(ds, **kwargs)`).

What a program's epoch loop iterates often comes from another module (`loader =
build_loader(args)`): SL201 follows the loader there, and the project's gates open the files that
call such a function (`DISTRIBUTED`).
"""

from __future__ import annotations

from enum import Enum

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal
from seedlint.analysis.index import FunctionInfo, ModuleIndex, Scope

SHUFFLE_POSITION = 3  # DistributedSampler(dataset, num_replicas, rank, shuffle, seed, drop_last)
LOADER_SAMPLER_POSITION = 3  # DataLoader(dataset, batch_size, shuffle, sampler, ...)


class Handed(str, Enum):
    """What a function returns that holds a shuffling DistributedSampler."""

    SAMPLER = "sampler"
    LOADER = "loader"
    KWARGS = "kwargs"  # a dict of a loader's keyword arguments with the sampler


def handed_out(index: ModuleIndex) -> dict[str, Handed]:
    """The module's functions (qualified) that return a shuffling DistributedSampler, a loader
    over one, or a loader's keyword arguments holding one."""
    found: dict[str, Handed] = {}
    for function in index.functions.values():
        kind = _returns(index, function)
        if kind is not None:
            found[function.qualified] = kind
    return found


def _returns(index: ModuleIndex, function: FunctionInfo) -> Handed | None:
    scope = function.scope
    for statement in index.statements_in(scope):
        node = statement.node
        if isinstance(node, cst.Return) and node.value is not None:
            kind = _holds(index, node.value, scope, 0)
            if kind is not None:
                return kind
    return None


def _holds(
    index: ModuleIndex, value: cst.BaseExpression, scope: Scope, depth: int
) -> Handed | None:
    """What a value holds, followed through the names of its function bound once."""
    if depth > 3:
        return None
    if isinstance(value, cst.Name):
        values = scope.values.get(value.value, [])
        if len(values) != 1 or not isinstance(values[0], cst.BaseExpression):
            return None
        return _holds(index, values[0], scope, depth + 1)
    if isinstance(value, cst.Call):
        qualified = index.qualify(value.func, scope)
        if qualified in catalog.DISTRIBUTED_SAMPLERS:
            shuffled = not is_literal(argument(value, "shuffle", SHUFFLE_POSITION), "False")
            return Handed.SAMPLER if shuffled else None
        if qualified in catalog.DATA_LOADERS:
            sampler = argument(value, "sampler", LOADER_SAMPLER_POSITION)
            if sampler is not None and _holds(index, sampler, scope, depth + 1) is Handed.SAMPLER:
                return Handed.LOADER
            return None
        if qualified == "builtins.dict":
            sampler = argument(value, "sampler", None)
            if sampler is not None and _holds(index, sampler, scope, depth + 1) is Handed.SAMPLER:
                return Handed.KWARGS
        return None
    if isinstance(value, cst.Dict):
        for element in value.elements:
            if (
                isinstance(element, cst.DictElement)
                and isinstance(element.key, cst.SimpleString)
                and element.key.evaluated_value == "sampler"
                and _holds(index, element.value, scope, depth + 1) is Handed.SAMPLER
            ):
                return Handed.KWARGS
    return None
