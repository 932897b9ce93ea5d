"""Branches a flow cannot take, from the values that reach them.

A function's parameter whose value at a call is a literal (passed as one, or left to a literal
default: `def resize(model, n, jitter=False)` called without `jitter`) decides the `if` statements
that test it (`if jitter:`, `if not jitter:`, `if seed is None:`), in the function and in the
functions defined inside it, as long as nothing binds the name again. Anything else is unknown,
and an unknown test takes both branches.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping

import libcst as cst

from seedlint.analysis.index import (
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    all_parameters,
    bind_arguments,
)

# A literal's value: None, a bool, an int or a str. `_UNKNOWN` when the expression is not one.
_UNKNOWN = object()
_COMPARISONS = {
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
}
Known = Mapping[Scope, Mapping[str, object]]


class _NeverNone:
    """The value of an argument known only not to be None (a list display, a comprehension, a
    name bound once to one): it decides `if x is None:` and nothing else."""

    def __repr__(self) -> str:
        return "<not None>"


NOT_NONE = _NeverNone()
# Expressions whose value is never None.
_NEVER_NONE = (
    cst.List,
    cst.Tuple,
    cst.Dict,
    cst.Set,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
    cst.FormattedString,
    cst.ConcatenatedString,
    cst.Lambda,
)


def literal(node: cst.BaseExpression | None) -> object:
    """The value of `None`, `True`, `False`, a number or a plain string literal."""
    if isinstance(node, cst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.Float):
        return float(node.evaluated_value)
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    return _UNKNOWN


def parameter_values(
    index: ModuleIndex,
    function: FunctionInfo,
    call: cst.Call | None,
    caller: ModuleIndex | None = None,
) -> dict[str, object]:
    """The parameters of `function` whose value is a known literal at `call` (None: run as an
    entry point, with its defaults), or known never to be None, and that its body never binds
    again; `caller` is the module making the call, when it is not `index`."""
    passed = dict(bind_arguments(function, call)) if call is not None else {}
    unpacked = call is not None and any(arg.star for arg in call.args)  # `f(*args, **kwargs)`
    values: dict[str, object] = {}
    for param in all_parameters(function.node):
        name = param.name.value
        if len(function.scope.values.get(name, ())) != 1:
            continue  # bound again in the body
        if name in passed:
            value = literal(passed[name])
            if value is _UNKNOWN and _never_none(caller or index, passed[name], call):
                value = NOT_NONE
        elif unpacked or param.default is None:
            continue
        else:
            value = literal(param.default)
        if value is not _UNKNOWN:
            values[name] = value
    return values


def _never_none(
    caller: ModuleIndex | None, value: cst.BaseExpression, call: cst.Call | None
) -> bool:
    """Whether an argument is never None: a display or comprehension, or a name that the calling
    scope (of `caller`, the module making `call`) binds only to such values (`eval_datasets =
    [load(t) for t in tasks]`)."""
    if not (isinstance(value, cst.Name) and caller is not None and call is not None):
        return isinstance(value, _NEVER_NONE)
    statement = caller.statement_of.get(call)
    bound = caller.bound_values(value.value, statement.scope) if statement else []
    return bool(bound) and all(isinstance(each, _NEVER_NONE) for each in bound)


def values_passed(
    index: ModuleIndex,
    function: FunctionInfo,
    call: cst.Call,
    caller: Scope,
    known: Mapping[str, object],
) -> dict[str, object]:
    """`parameter_values`, with the arguments that name a known value of the calling scope
    `caller`, bound once there (its own parameter passed on: `Block(dim, padding=padding)`)."""
    passed = parameter_values(index, function, call)
    for parameter, value in bind_arguments(function, call):
        if (
            isinstance(value, cst.Name)
            and value.value in known
            and len(caller.values.get(value.value, ())) == 1
        ):
            passed[parameter] = known[value.value]
    return passed


def passed_literals(
    call: cst.Call, caller: ModuleIndex | None = None
) -> tuple[tuple[str | int, object], ...]:
    """The literal arguments of a call, by keyword or position (`f(x, 0, shuffle=False)`:
    `((1, 0), ("shuffle", False))`), a display or comprehension as `NOT_NONE` (and, given the
    caller's module, a name bound only to such); none after a `*args` (positions unknown)."""
    found: list[tuple[str | int, object]] = []
    for position, arg in enumerate(call.args):
        if arg.star == "*":
            break
        value = literal(arg.value) if not arg.star else _UNKNOWN
        if value is _UNKNOWN and not arg.star and _never_none(caller, arg.value, call):
            value = NOT_NONE
        if value is not _UNKNOWN:
            found.append((arg.keyword.value if arg.keyword else position, value))
    return tuple(found)


def test_value(test: cst.BaseExpression, scope: Scope, known: Known) -> bool | None:
    """Whether an `if` test holds, when the known values decide it (None: unknown). A name is a
    parameter's value; `self.flag` a value `kept_attributes` gives."""
    if isinstance(test, (cst.Name, cst.Attribute)):
        value = _value_of(test, scope, known)
        return None if value is _UNKNOWN or value is NOT_NONE else bool(value)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = test_value(test.expression, scope, known)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        left, right = (test_value(side, scope, known) for side in (test.left, test.right))
        if isinstance(test.operator, cst.And):
            return False if False in (left, right) else (True if left and right else None)
        return (
            True if True in (left, right) else (False if left is False and right is False else None)
        )
    if (
        isinstance(test, cst.Comparison)
        and isinstance(test.left, (cst.Name, cst.Attribute))
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, (cst.Is, cst.IsNot))
        and literal(test.comparisons[0].comparator) is None
    ):
        value = _value_of(test.left, scope, known)
        if value is _UNKNOWN:
            return None
        return (value is None) == isinstance(test.comparisons[0].operator, cst.Is)
    if (
        isinstance(test, cst.Comparison)
        and isinstance(test.left, (cst.Name, cst.Attribute))
        and len(test.comparisons) == 1
        and type(test.comparisons[0].operator) in _COMPARISONS
    ):
        # `if pid > 0:` with `pid=0` passed, `if mode == "train":` with its default
        value = _value_of(test.left, scope, known)
        other = literal(test.comparisons[0].comparator)
        if value is _UNKNOWN or value is NOT_NONE or other is _UNKNOWN:
            return None
        try:
            return bool(_COMPARISONS[type(test.comparisons[0].operator)](value, other))
        except TypeError:
            return None
    return None


def _value_of(node: cst.Name | cst.Attribute, scope: Scope | None, known: Known) -> object:
    """The known value of a name read in `scope`: a parameter of the function that binds it
    (the innermost scope binding the name decides; a class body's names are not seen); of
    `self.flag`, the value known for it in a method's scope or one around it."""
    if isinstance(node, cst.Attribute):
        if not (isinstance(node.value, cst.Name) and node.value.value == "self"):
            return _UNKNOWN
        key = f"self.{node.attr.value}"
        while scope is not None and scope.kind != "class":
            if key in known.get(scope, {}):
                return known[scope][key]
            scope = scope.parent
        return _UNKNOWN
    name = node.value
    while scope is not None:
        if scope.kind != "class" and name in scope.bindings:
            return known.get(scope, {}).get(name, _UNKNOWN)
        scope = scope.parent
    return _UNKNOWN


def kept_attributes(
    owner: ClassInfo, init: FunctionInfo, values: Mapping[str, object]
) -> dict[str, object]:
    """The known values of the attributes (`self.flag`) that a class's constructor sets from a
    parameter alone, and nothing else sets, for a construction whose known parameters are
    `values`: the values `test_value` reads for `self.flag` in the class's methods."""
    kept = {}
    for attribute, assigned in owner.attributes.items():
        if len(assigned) != 1 or assigned[0][1] is not init.scope:
            continue
        value = assigned[0][0]
        if isinstance(value, cst.Name) and value.value in values:
            kept[f"self.{attribute}"] = values[value.value]
    return kept


def enclosing_tests(
    index: ModuleIndex, statement: Statement
) -> Iterator[tuple[cst.BaseExpression, bool]]:
    """The tests of the `if` statements around a statement in its function, each with the side
    the statement is on (True: the body, run when the test holds)."""
    current, compound = statement, index.enclosing(statement)
    while compound is not None and not isinstance(compound.node, (cst.FunctionDef, cst.ClassDef)):
        if isinstance(compound.node, cst.If):
            blocks = index.blocks_of(compound.node)
            yield compound.node.test, bool(blocks) and current.siblings is blocks[0]
        current, compound = compound, index.enclosing(compound)


def ruled_out(index: ModuleIndex, statement: Statement, known: Known) -> bool:
    """Whether the known values rule out a side of an `if` that the statement is on."""
    return any(
        test_value(test, statement.scope, known) is (not side)
        for test, side in enclosing_tests(index, statement)
    )


def with_derived_flags(
    index: ModuleIndex, function: FunctionInfo, values: Mapping[str, object]
) -> dict[str, object]:
    """`values` (a function's known parameters), with the flags its body binds once from them
    (`training = optimizer is not None`, given `optimizer=None`: False)."""
    known = dict(values)
    for statement in index.statements_in(function.scope):
        node = statement.node
        if not (
            isinstance(node, cst.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
        ):
            continue
        name = node.targets[0].target.value
        if name in known or len(function.scope.values.get(name, ())) != 1:
            continue
        value = test_value(node.value, function.scope, {function.scope: known})
        if value is not None:
            known[name] = value
    return known


# Calls that end the program where they run.
_EXITS = frozenset({"sys.exit", "builtins.exit", "builtins.quit", "os._exit"})


def exits_before(index: ModuleIndex, statement: Statement) -> bool:
    """Whether the program always ends before a statement of its function or module runs: a
    `sys.exit()` (`exit()`, `quit()`, `os._exit(..)`, `raise SystemExit`) written before it in its
    block or in a block around it (a lab skeleton's `sys.exit()` above the backward pass)."""
    while statement is not None and not isinstance(statement.node, (cst.FunctionDef, cst.ClassDef)):
        for earlier in statement.siblings[: statement.position]:
            if _exits(index, earlier):
                return True
        statement = index.enclosing(statement)
    return False


def _exits(index: ModuleIndex, statement: Statement) -> bool:
    node = statement.node
    if isinstance(node, cst.Raise) and node.exc is not None:
        raised = node.exc.func if isinstance(node.exc, cst.Call) else node.exc
        return index.qualify(raised, statement.scope) == "builtins.SystemExit"
    return (
        isinstance(node, cst.Expr)
        and isinstance(node.value, cst.Call)
        and index.qualify(node.value.func, statement.scope) in _EXITS
    )
