"""Objects of data libraries, recognised by what builds them rather than by their names."""

from __future__ import annotations

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import argument, is_literal
from seedlint.analysis.index import ModuleIndex, Scope

MAP_STYLE, STREAMED = "map-style", "streamed"
_MAX_CHAIN = 12


def hf_dataset(
    index: ModuleIndex, receiver: cst.BaseExpression | None, scope: Scope, depth: int = 0
) -> str | None:
    """`MAP_STYLE` or `STREAMED` when an expression is a Hugging Face `datasets` dataset: built by a
    `datasets` call, through indexing (`["train"]`), methods (`.map(f)`) and names bound only to
    datasets of one kind (`if local: ds = load_dataset("json", ..) else: ds = load_dataset(name)`),
    or rebound only to what they derive from (`ds = ds.shuffle()`); None when that is not known (a
    parameter, another library)."""
    node, streamed = receiver, False
    for _ in range(_MAX_CHAIN):
        if isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Name):
            values = [
                value
                for value in index.bound_values(node.value, scope)
                if not (isinstance(value, cst.BaseExpression) and root_name(value) == node.value)
            ]
            if not values or not all(isinstance(value, cst.BaseExpression) for value in values):
                return None
            if len(values) > 1:  # bound on several paths: a dataset of one kind on each
                kinds = {
                    hf_dataset(index, value, scope, depth + 1) if depth < _MAX_CHAIN else None
                    for value in values
                }
                kind = kinds.pop() if len(kinds) == 1 else None
                return STREAMED if kind is not None and streamed else kind
            node = values[0]
        elif isinstance(node, cst.Call):
            method = node.func.attr.value if isinstance(node.func, cst.Attribute) else ""
            qualified = index.qualify(node.func, scope) or method
            streamed = (
                streamed
                or any(spelling in qualified for spelling in catalog.HF_STREAMED)
                or is_literal(argument(node, "streaming", None), "True")
            )
            if qualified.startswith("datasets."):
                return STREAMED if streamed else MAP_STYLE
            # a dataset's method
            node = node.func.value if isinstance(node.func, cst.Attribute) else None
        else:
            return None
    return None


def root_name(expr: cst.BaseExpression) -> str | None:
    """The name an expression's chain of attributes, calls and indexing starts from (`ds` of
    `ds.map(f)[0]`)."""
    while isinstance(expr, (cst.Attribute, cst.Call, cst.Subscript)):
        expr = expr.value if not isinstance(expr, cst.Call) else expr.func
    return expr.value if isinstance(expr, cst.Name) else None
