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


def iter_children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The syntactic children of `node` in source order, without whitespace tokens."""
    for name in _fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, cst.CSTNode):
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


_DETACHED = cst.Module([])


def written(node: cst.CSTNode) -> str:
    """A node's code as written, without the module around it (a node of another module too)."""
    return _DETACHED.code_for_node(node)
