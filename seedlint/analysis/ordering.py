"""Where an iteration order goes: parent links, the climb through calls that keep an order,
loops that collect in order, and the `sorted(..)` fix. Shared by SL205 and SL206."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.context import FileContext
from seedlint.analysis.index import ModuleIndex, Scope
from seedlint.analysis.walk import iter_children
from seedlint.diagnostics import Applicability, Fix

# Calls whose result keeps the order of the iterable they are given.
ORDER_KEEPING_CALLS = frozenset(
    {
        "builtins.list",
        "builtins.tuple",
        "builtins.iter",
        "builtins.reversed",
        "builtins.map",
        "builtins.filter",
        "builtins.zip",
        "itertools.chain",
        "itertools.islice",
        "numpy.array",
        "numpy.asarray",
        "tqdm.tqdm",
        "tqdm.auto.tqdm",
        "tqdm.notebook.tqdm",
        "tqdm.std.tqdm",  # a progress bar over the items, in order
    }
)


class SyntaxTree:
    """Parent links and enclosing scopes for the nodes of the parts of a module it has covered."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self.parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self._covered: set[cst.CSTNode] = set()
        self._scope_of_owner: dict[cst.CSTNode, Scope] = {
            info.node: scope for scope, info in index.function_of_scope.items()
        }
        self._scope_of_owner.update({info.node: info.scope for info in index.classes.values()})

    def cover(self, root: cst.CSTNode) -> None:
        """Link every node below `root` to its parent."""
        if root in self._covered:
            return
        self._covered.add(root)
        stack = [root]
        while stack:
            node = stack.pop()
            for child in iter_children(node):
                self.parents[child] = node
                stack.append(child)

    def scope_of(self, node: cst.CSTNode) -> Scope:
        """The scope whose code `node` is part of."""
        child, current = node, self.parents.get(node)
        while current is not None:
            if child is getattr(current, "body", None) and current in self._scope_of_owner:
                return self._scope_of_owner[current]
            child, current = current, self.parents.get(current)
        return self.index.module_scope

    def order_chain(self, node: cst.CSTNode, scope: Scope) -> list[cst.CSTNode]:
        """`node`, then each enclosing expression whose value keeps its iteration order.

        Through order-keeping calls (`list`, `map`, ...), comprehensions other than set
        comprehensions, slices, `+` and conditional expressions.
        """
        chain = [node]
        while True:
            current, parent = chain[-1], self.parents.get(chain[-1])
            if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
                call = self.parents[parent]
                if self.index.qualify(call.func, scope) not in ORDER_KEEPING_CALLS:
                    return chain
                chain.append(call)
            elif isinstance(parent, cst.CompFor) and parent.iter is current:
                owner = parent
                while isinstance(owner, cst.CompFor):
                    owner = self.parents[owner]
                if not isinstance(owner, (cst.ListComp, cst.GeneratorExp, cst.DictComp)):
                    return chain
                chain.append(owner)
            elif (
                isinstance(parent, cst.Subscript)
                and parent.value is current
                and all(isinstance(element.slice, cst.Slice) for element in parent.slice)
            ):
                chain.append(parent)
            elif (
                isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add)
            ) or (isinstance(parent, cst.IfExp) and parent.test is not current):
                chain.append(parent)
            else:
                return chain

    def call_argument_of(self, node: cst.CSTNode) -> cst.Call | None:
        """The call `node` is a plain positional argument of."""
        parent = self.parents.get(node)
        if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
            return self.parents[parent]
        return None


def builds_ordered_collection(loop: cst.For) -> bool:
    """Whether a loop body collects in iteration order: appends, yields, or numbers its items."""
    counters: set[str] = set()
    numbered: list[cst.BaseExpression] = []
    for node in own_nodes(loop.body):
        if isinstance(node, cst.Yield):
            return True
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and (node.func.attr.value in catalog.COLLECTING_METHODS)
        ):
            return True
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            counters.add(node.target.value)
        if isinstance(node, cst.Assign) and any(
            isinstance(t.target, cst.Subscript) for t in node.targets
        ):
            numbered.append(node.value)
    return any(
        (isinstance(value, cst.Name) and value.value in counters)
        or (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and value.func.value == "len"
        )
        for value in numbered
    )


def own_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes below `node`, without the bodies of functions, classes and lambdas defined
    there."""
    stack = list(iter_children(node))
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend(iter_children(current))


def sorted_fix(
    context: FileContext,
    tree: SyntaxTree,
    node: cst.BaseExpression,
    scope: Scope,
    key: str | None = None,
) -> Fix | None:
    """Wrap `node` in `sorted(..)`; `list(node)` becomes `sorted(node)`. None where `sorted` is
    shadowed."""
    if context.index.lookup("sorted", scope) != "builtins.sorted":
        return None
    call = tree.call_argument_of(node)
    if (
        key is None
        and call is not None
        and len(call.args) == 1
        and isinstance(call.func, cst.Name)
        and context.index.qualify(call.func, scope) == "builtins.list"
    ):
        return Fix(
            "Replace `list` with `sorted`",
            Applicability.SAFE,
            (context.edits.replace(call.func, "sorted"),),
        )
    extra = f", key={key}" if key else ""
    edit = context.edits.replace(node, f"sorted({context.code(node)}{extra})")
    return Fix("Wrap in `sorted(..)`", Applicability.SAFE, (edit,))
