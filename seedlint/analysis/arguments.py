"""What a call passes (an argument by keyword or position, the seed of a seeding call, literals),
and the name it calls."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst


def argument(call: cst.Call, keyword: str, position: int | None) -> cst.BaseExpression | None:
    """A call's argument given by keyword, or else at a positional index (None: keyword-only)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    if position is None:
        return None
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position] if len(positional) > position else None


def seed_argument(call: cst.Call, keyword: str = "seed") -> cst.BaseExpression | None:
    """The seed a seeding call passes: its first positional argument or its seed keyword."""
    for arg in call.args:
        if arg.keyword is None and not arg.star:
            return arg.value
    return argument(call, keyword, None)


def names_a_seed(arg: cst.Arg) -> bool:
    """Whether an argument is a seed by its name: `seed=..`, or a name, attribute or item named
    like one (`args.seed`, `cfg.SEED`, `random_seed`, `config["seed"]`)."""
    if arg.keyword is not None and "seed" in arg.keyword.value.lower():
        return True
    value = arg.value
    while isinstance(value, (cst.Attribute, cst.Subscript)):
        if isinstance(value, cst.Attribute) and "seed" in value.attr.value.lower():
            return True
        if isinstance(value, cst.Subscript) and any(
            isinstance(element.slice, cst.Index)
            and isinstance(element.slice.value, cst.SimpleString)
            and "seed" in element.slice.value.value.lower()
            for element in value.slice
        ):
            return True
        value = value.value
    return isinstance(value, cst.Name) and "seed" in value.value.lower()


def is_none(expr: cst.BaseExpression | None) -> bool:
    return expr is None or (isinstance(expr, cst.Name) and expr.value == "None")


def unseeded(call: cst.Call, seeding: Iterable[tuple[str, int | None]]) -> bool:
    """Whether a call passes none of its seeding arguments, (keyword, position) each (None counts as
    none)."""
    return all(is_none(argument(call, keyword, position)) for keyword, position in seeding)


def is_cuda_string(expr: cst.BaseExpression) -> bool:
    """A string literal naming a CUDA device: `"cuda"` or `"cuda:N"`."""
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return isinstance(value, str) and (value == "cuda" or value.startswith("cuda:"))
    return False


def is_literal(node: cst.BaseExpression | None, *spellings: str) -> bool:
    """Whether a node is a name, integer or string literal written as one of `spellings`."""
    return (
        isinstance(node, (cst.Name, cst.Integer, cst.SimpleString))
        and getattr(node, "value", None) in spellings
    )


def callee_name(func: cst.BaseExpression) -> str:
    """The last name of a callee as written: `log.warning` -> "warning" ("" for anything else)."""
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else ""
