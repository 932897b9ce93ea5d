"""Fast iteration over the children of libcst nodes.

libcst's own visitors rebuild every node they pass; reading the dataclass fields directly
is several times cheaper. Whitespace, punctuation and operator tokens are skipped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import libcst as cst

_SKIPPED_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "comma",
        "semicolon",
        "dot",
        "colon",
        "equal",
        "star",
        "operator",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "newline",
        "trailing_whitespace",
        "whitespace",
        "asynchronous",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "first_line",
        "empty_lines",
        "indent",
    }
)
_FIELDS_BY_TYPE: dict[type, tuple[str, ...]] = {}
# What a field's value is, by its type (an `isinstance` against libcst's abstract classes costs
# several dictionary lookups): a node, a sequence that may hold nodes, or neither.
_NODE, _SEQUENCE, _OTHER = 0, 1, 2
_KINDS: dict[type, int] = {}


def _fields(node_type: type) -> tuple[str, ...]:
    names = _FIELDS_BY_TYPE.get(node_type)
    if names is None:
        names = tuple(
            f.name
            for f in dataclasses.fields(node_type)
            if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace")
        )
        _FIELDS_BY_TYPE[node_type] = names
    return names


def _kind(value_type: type) -> int:
    kind = _KINDS.get(value_type)
    if kind is None:
        kind = _KINDS[value_type] = (
            _NODE
            if issubclass(value_type, cst.CSTNode)
            else _SEQUENCE
            if issubclass(value_type, (tuple, list))
            else _OTHER
        )
    return kind


def iter_children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The syntactic children of `node` in source order, without whitespace tokens."""
    for name in _FIELDS_BY_TYPE.get(type(node)) or _fields(type(node)):
        value = getattr(node, name)
        kind = _KINDS.get(type(value))
        if kind is None:
            kind = _kind(type(value))
        if kind == _NODE:
            yield value
        elif kind == _SEQUENCE:
            for item in value:
                if _kind(type(item)) == _NODE:
                    yield item


def iter_descendants(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """All nodes below `node`, depth first, in source order."""
    stack = list(iter_children(node))
    stack.reverse()
    while stack:
        current = stack.pop()
        yield current
        children = list(iter_children(current))
        children.reverse()
        stack.extend(children)


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """The calls in `node` in evaluation order (a call after its callee and arguments), not looking
    into lambdas (their calls run when the lambda does)."""
    calls: list[cst.Call] = []
    _add_calls(node, calls)
    return calls


def _add_calls(node: cst.CSTNode, calls: list[cst.Call]) -> None:
    node_type = type(node)
    if node_type is cst.Lambda:
        return
    for child in iter_children(node):
        if type(child) not in _LEAVES:
            _add_calls(child, calls)
    if node_type is cst.Call:
        calls.append(node)


# nodes that hold no calls: a call's callee and arguments are mostly these
_LEAVES = frozenset(
    {cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis}
)


_DETACHED = cst.Module([])


def written(node: cst.CSTNode) -> str:
    """A node's code as written, without the module around it (a node of another module too)."""
    return _DETACHED.code_for_node(node)
