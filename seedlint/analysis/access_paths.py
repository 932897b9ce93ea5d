"""Dotted paths (`seed`, `args.seed`, `cfg["seed"]` as `cfg`) that code reads and stores into.

Used to follow a value through assignments where plain names are not enough: a seed picked
into `args.seed`, a model built into `self.model` and then loaded.
"""

from __future__ import annotations

import libcst as cst

from seedlint.analysis.index import dotted_name
from seedlint.analysis.walk import iter_children


def paths_overlap(bound: set[str], read: set[str]) -> bool:
    """Whether reading any of `read` can see a value stored into any of `bound`."""
    return any(
        r == b or r.startswith(b + ".") or b.startswith(r + ".") for b in bound for r in read
    )


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
    if isinstance(node, cst.Attribute):  # `f().x`: what `f()` reads (`x` is no name)
        _collect_reads(node.value, paths)
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
