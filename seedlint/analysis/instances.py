"""Where objects go: objects of project classes that keep what they are given (`Learner(env)` whose
`__init__` stores `self.env = env`, read by the class's methods as `self.env`), and whether an
object the code makes leaves the code that made it (where it may be seeded)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.index import (
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    Scope,
    Statement,
    bind_arguments,
)
from seedlint.analysis.walk import iter_children

_MAX_BASES = 8
# Bases whose methods do not touch what an instance keeps (a Gymnasium wrapper's `reset` passes the
# seed on, a project base of another module may do anything).
PLAIN_BASES = frozenset({"builtins.object", "abc.ABC"}) | catalog.NN_MODULES


def kept_attributes(function: FunctionInfo, names: set[str] | frozenset[str]) -> set[str]:
    """The attributes an `__init__` keeps one of its `names` in (`self.env = env`)."""
    cls = function.owner_class
    if cls is None or function.node.name.value != "__init__":
        return set()
    return {
        attribute
        for attribute, values in cls.attributes.items()
        if any(
            scope is function.scope and isinstance(value, cst.Name) and value.value in names
            for value, scope in values
        )
    }


def kept_from(
    index: ModuleIndex,
    init: FunctionInfo,
    call: cst.Call,
    handed: Callable[[cst.BaseExpression], bool],
) -> tuple[set[str], list[FunctionInfo]] | None:
    """What the object a constructor call builds keeps of the arguments `handed` picks
    (`Trainer(model, loader)` storing `self.train_loader`), with its class's methods; None when it
    keeps none of them, or when a base of its class is out of view (`init`: the `__init__` the call
    runs, in `index`)."""
    kept = kept_attributes(
        init, {parameter for parameter, arg in bind_arguments(init, call) if handed(arg)}
    )
    methods = methods_in_view(index, init.owner_class) if kept else None  # type: ignore[arg-type]
    return (kept, methods) if methods is not None else None


def methods_in_view(
    index: ModuleIndex, cls: ClassInfo, depth: int = 0
) -> list[FunctionInfo] | None:
    """The methods of a class and of its bases in the module; None when a base may have others."""
    if len(cls.bases) != len(cls.node.bases) or depth > _MAX_BASES:
        return None
    methods = list(cls.methods.values())
    for base in cls.bases:
        if base in index.classes:
            inherited = methods_in_view(index, index.classes[base], depth + 1)
            if inherited is None:
                return None
            methods += inherited
        elif base not in PLAIN_BASES:
            return None
    return methods


def instance_name(method: FunctionInfo) -> str | None:
    """What a method calls its instance (`self`): its first positional parameter."""
    params = method.node.params
    positional = [*params.posonly_params, *params.params]
    return positional[0].name.value if positional else None


def is_kept(node: cst.CSTNode, owner: str, attributes: set[str] | frozenset[str]) -> bool:
    """Whether an expression is `self.<attribute>` for one of `attributes` (`owner` naming the
    instance)."""
    return (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == owner
        and node.attr.value in attributes
    )


def holds(node: cst.CSTNode, name: str) -> bool:
    """Whether an expression is the object called `name`: a name, or an attribute for `self.env`."""
    owner, _, attribute = name.partition(".")
    return (
        is_kept(node, owner, {attribute})
        if attribute
        else isinstance(node, cst.Name) and node.value == name
    )


def hands_on(node: cst.CSTNode, name: str) -> bool:
    """Whether an expression hands on the object called `name` (not only reads its attributes or
    methods)."""
    if holds(node, name):
        return True
    if isinstance(node, cst.Name) or (
        isinstance(node, cst.Attribute)
        and (isinstance(node.value, cst.Name) or holds(node.value, name))
    ):
        return False
    return any(hands_on(child, name) for child in iter_children(node))


def escapes(
    statements: Iterable[Statement],
    name: str,
    scope: Scope,
    may_seed: Callable[[cst.Call, Scope], bool],
    handed: Callable[[cst.CSTNode, str], bool] = hands_on,
    aliases: bool = False,
) -> bool:
    """Whether the object held in `name` leaves the code that made it, in `statements`: returned or
    yielded from `scope`, stored in an attribute or an item (with `aliases`, under another name
    too), or given to a call that `may_seed` it. `handed` tells whether an expression hands the
    object on."""
    for statement in statements:
        node = statement.node
        value = getattr(node, "value", None)
        if isinstance(node, (cst.Return, cst.Expr)):
            leaves = statement.scope is scope and (
                isinstance(node, cst.Return) or isinstance(value, cst.Yield)
            )
        elif isinstance(node, (cst.Assign, cst.AnnAssign)):
            targets = (
                [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            )
            leaves = aliases or not all(isinstance(target, cst.Name) for target in targets)
        else:
            leaves = False
        if leaves and value is not None and handed(value, name):
            return True
        for call in statement.calls:
            if any(handed(arg.value, name) for arg in call.args) and may_seed(
                call, statement.scope
            ):
                return True
    return False
