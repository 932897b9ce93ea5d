"""Objects of project classes that keep what they are given: `Learner(env)` whose `__init__` stores
`self.env = env`, read by the class's methods as `self.env`."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.index import ClassInfo, FunctionInfo, ModuleIndex, bind_arguments

_MAX_BASES = 8
# Bases whose methods do not touch what an instance keeps (a Gymnasium wrapper's `reset` passes the seed on,
# a project base of another module may do anything).
PLAIN_BASES = frozenset({"builtins.object", "abc.ABC"}) | catalog.NN_MODULES


def kept_attributes(function: FunctionInfo, names: set[str] | frozenset[str]) -> set[str]:
    """The attributes an `__init__` keeps one of its `names` in (`self.env = env`)."""
    cls = function.owner_class
    if cls is None or function.node.name.value != "__init__":
        return set()
    return {attribute for attribute, values in cls.attributes.items()
            if any(scope is function.scope and isinstance(value, cst.Name) and value.value in names
                   for value, scope in values)}


def kept_from(index: ModuleIndex, init: FunctionInfo, call: cst.Call, handed: Callable[[cst.BaseExpression], bool],
              ) -> tuple[set[str], list[FunctionInfo]] | None:
    """What the object a constructor call builds keeps of the arguments `handed` picks (`Trainer(model, loader)`
    storing `self.train_loader`), with its class's methods; None when it keeps none of them, or when a base of
    its class is out of view (`init`: the `__init__` the call runs, in `index`)."""
    kept = kept_attributes(init, {parameter for parameter, arg in bind_arguments(init, call) if handed(arg)})
    methods = methods_in_view(index, init.owner_class) if kept else None  # type: ignore[arg-type]
    return (kept, methods) if methods is not None else None


def methods_in_view(index: ModuleIndex, cls: ClassInfo, depth: int = 0) -> list[FunctionInfo] | None:
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
    """What a method calls its instance (`self`)."""
    parameters = method.node.params.params
    return parameters[0].name.value if parameters else None


def is_kept(node: cst.CSTNode, owner: str, attributes: set[str] | frozenset[str]) -> bool:
    """Whether an expression is `self.<attribute>` for one of `attributes` (`owner` naming the instance)."""
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == owner \
        and node.attr.value in attributes
