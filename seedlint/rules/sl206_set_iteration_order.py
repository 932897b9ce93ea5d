"""SL206 set-iteration-order: an ordered result built by iterating a set of strings.

String hashes are salted per process (PYTHONHASHSEED), so a set of strings iterates in a
different order on every run. Only sets with evidence of string elements are flagged: string
literals, f-strings, `str(..)`, string methods (`.lower()`, `.strip()`, ...), `.split()` results,
lines of `open(..)`, and `str` annotations (`words: list[str]`, `vocab: set[str]`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property

import libcst as cst

from seedlint.analysis.arguments import callee_name
from seedlint.analysis.context import FileContext
from seedlint.analysis.environment import string_value
from seedlint.analysis.index import Scope
from seedlint.analysis.ordering import SyntaxTree, builds_ordered_collection, sorted_fix
from seedlint.rules.base import Finding, Probe, Rule

_SET_TYPES = frozenset({"builtins.set", "builtins.frozenset"})
_SET_ANNOTATIONS = _SET_TYPES | frozenset(
    {
        "typing.Set",
        "typing.FrozenSet",
        "typing.AbstractSet",
        "typing.MutableSet",
        "collections.abc.Set",
        "collections.abc.MutableSet",
    }
)
_ITERABLE_ANNOTATIONS = _SET_ANNOTATIONS | frozenset(
    {
        "builtins.list",
        "builtins.tuple",
        "typing.List",
        "typing.Tuple",
        "typing.Sequence",
        "typing.Iterable",
        "typing.Collection",
        "collections.abc.Sequence",
        "collections.abc.Iterable",
        "collections.abc.Collection",
    }
)
_SET_RETURNING_METHODS = frozenset(
    {"union", "intersection", "difference", "symmetric_difference", "copy"}
)
# Calls whose items are those of their first argument.
_ITEM_KEEPING_CALLS = frozenset(
    {
        "builtins.set",
        "builtins.frozenset",
        "builtins.list",
        "builtins.tuple",
        "builtins.sorted",
        "builtins.iter",
    }
)
_STR_FUNCTIONS = frozenset(
    {
        "builtins.str",
        "builtins.repr",
        "builtins.format",
        "builtins.chr",
        "os.path.basename",
        "os.path.dirname",
        "os.path.join",
        "os.path.normpath",
        "os.path.relpath",
    }
)
_STR_METHODS = frozenset(
    {
        "lower",
        "upper",
        "strip",
        "lstrip",
        "rstrip",
        "casefold",
        "title",
        "capitalize",
        "swapcase",
        "format",
        "join",
        "removeprefix",
        "removesuffix",
        "zfill",
        "ljust",
        "rjust",
        "center",
        "decode",
    }
)
_SPLIT_METHODS = frozenset({"split", "rsplit", "splitlines"})
# Iterating into these builds an ordered result; the lazy ones only pass the order on.
_MATERIALIZING_CALLS = frozenset(
    {"builtins.list", "builtins.tuple", "builtins.enumerate", "numpy.array", "numpy.asarray"}
)
_LAZY_CALLS = frozenset(
    {
        "builtins.map",
        "builtins.filter",
        "builtins.zip",
        "builtins.iter",
        "itertools.islice",
        "itertools.chain",
    }
)
# Consumers whose result does not depend on the order they get the items in.
_ORDER_FREE_CALLS = frozenset(
    {
        "builtins.sorted",
        "builtins.len",
        "builtins.set",
        "builtins.frozenset",
        "builtins.sum",
        "builtins.min",
        "builtins.max",
        "builtins.any",
        "builtins.all",
        "collections.Counter",
    }
)
_MAX_DEPTH = 6


class SetIterationOrder(Rule):
    code = "SL206"
    name = "set-iteration-order"
    summary = (
        "An ordered result is built by iterating a set of strings, whose order changes run to run"
    )
    default_enabled = False
    fix_availability = "safe"
    # set(..) and frozenset(..), set literals and comprehensions, set[str] and Set[str] annotations.
    patterns = (b"set(", b"{", b"set[", b"Set[")
    probe = Probe.HASH_ORDER

    def check(self, context: FileContext) -> Iterator[Finding]:
        sets = _StringSets(context)
        for iterated in sets.iterated_expressions():
            scope = sets.tree.scope_of(iterated)
            if sets.is_string_set(
                iterated, scope, sets.comprehension_names(iterated), 0
            ) and sets.ordered_use(iterated, scope):
                shown = (
                    f"`{context.code(iterated)}`"
                    if isinstance(iterated, (cst.Name, cst.Attribute))
                    else "this set"
                )
                yield Finding(
                    iterated,
                    f"iterating {shown}, a set of strings, gives a different order on every run "
                    "because string hashes are salted per process (`PYTHONHASHSEED`), so the "
                    "ordered result built from it changes too",
                    sorted_fix(context, sets.tree, iterated, scope),
                    help="Iterate `sorted(..)` of the set instead",
                )


class _StringSets:
    """Where one file iterates expressions, and which of them are sets of strings."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.index = context.index
        self.tree = SyntaxTree(self.index)
        self.tree.cover(self.index.module)

    # ---------------------------------------------------------------- iteration
    def iterated_expressions(self) -> Iterator[cst.BaseExpression]:
        """Expressions iterated by a loop, a comprehension, an unpacking or a call that consumes
        them."""
        for node, parent in self.tree.parents.items():
            if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
                yield node
            elif isinstance(parent, cst.StarredElement) and isinstance(
                self.tree.parents.get(parent), (cst.List, cst.Tuple)
            ):
                yield node
            elif (
                isinstance(parent, cst.Arg)
                and parent.value is node
                and parent.keyword is None
                and not parent.star
            ):
                yield node

    def ordered_use(self, iterated: cst.BaseExpression, scope: Scope) -> bool:
        """Whether iterating `iterated` builds a result whose order is the iteration order."""
        parent = self.tree.parents[iterated]
        if isinstance(parent, cst.For):
            return builds_ordered_collection(parent)
        if isinstance(parent, cst.CompFor):
            owner = parent
            while isinstance(owner, cst.CompFor):
                owner = self.tree.parents[owner]
            return isinstance(owner, (cst.ListComp, cst.GeneratorExp)) and self._consumed_in_order(
                owner, scope, isinstance(owner, cst.ListComp)
            )
        if isinstance(parent, cst.StarredElement):
            return self._consumed_in_order(self.tree.parents[parent], scope, True)
        call = self.tree.call_argument_of(iterated)
        qualified = self.index.qualify(call.func, scope)
        if _is_join(call):
            return not self._only_in_a_message(call, scope) and self._consumed_in_order(
                call, scope, True
            )
        if qualified in _MATERIALIZING_CALLS:
            return self._consumed_in_order(call, scope, True)
        return qualified in _LAZY_CALLS and self._consumed_in_order(call, scope, False)

    def _consumed_in_order(self, result: cst.CSTNode, scope: Scope, materialized: bool) -> bool:
        """Whether a result holding the iteration order reaches anything but an order-free
        consumer."""
        chain = self.tree.order_chain(result, scope)
        materialized = materialized or any(
            isinstance(node, cst.ListComp)
            or (
                isinstance(node, cst.Call)
                and self.index.qualify(node.func, scope) in _MATERIALIZING_CALLS
            )
            for node in chain
        )
        top = chain[-1]
        parent = self.tree.parents.get(top)
        if isinstance(parent, cst.Comparison):
            return False
        if isinstance(parent, cst.For):
            return materialized or builds_ordered_collection(parent)
        call = self.tree.call_argument_of(top)
        if call is not None:
            qualified = self.index.qualify(call.func, scope)
            if qualified in _ORDER_FREE_CALLS:
                return False
            if qualified == "builtins.next" or qualified == "builtins.enumerate":
                return True
            if _is_join(call):
                return not self._only_in_a_message(call, scope)
        if (
            isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
        ):
            name = parent.targets[0].target.value
            return materialized and not self._only_order_free_uses(name, parent, scope)
        return materialized

    def _only_order_free_uses(self, name: str, assignment: cst.Assign, scope: Scope) -> bool:
        """Whether every later read of a local name ignores order: `s.startswith(name)`, `x in
        name`, `sorted(name)`, `len(name)`... (a tuple of prefixes built from a set is as good in
        any order). A module-level name may be read elsewhere: it never qualifies."""
        if scope.kind != "function":
            return False
        uses = 0
        for node, parent in self.tree.parents.items():
            if (
                not (isinstance(node, cst.Name) and node.value == name)
                or parent is assignment.targets[0]
            ):
                continue
            if self.tree.scope_of(node) is not scope:
                continue
            uses += 1
            if isinstance(parent, cst.ComparisonTarget) and isinstance(
                parent.operator, (cst.In, cst.NotIn)
            ):
                continue
            call = self.tree.call_argument_of(node)
            if call is not None and (
                self.index.qualify(call.func, scope) in _ORDER_FREE_CALLS
                or (
                    isinstance(call.func, cst.Attribute)
                    and call.func.attr.value in _ORDER_FREE_METHODS
                )
            ):
                continue
            return False
        return uses > 0

    def _only_in_a_message(self, node: cst.CSTNode, scope: Scope) -> bool:
        """Whether a joined string only ends up where its order does not matter: a message (printed,
        logged, warned or raised), or a regex alternation (`"|".join(..)`), which accepts the same
        strings in any order."""
        alternation = isinstance(node, cst.Call) and string_value(node.func.value) == "|"
        current = node
        while True:
            parent = self.tree.parents.get(current)
            if isinstance(
                parent,
                (
                    cst.BinaryOperation,
                    cst.FormattedStringExpression,
                    cst.FormattedString,
                    cst.ConcatenatedString,
                    cst.Arg,
                ),
            ):
                current = parent
            elif isinstance(parent, cst.Call) and parent.func is not current:
                if alternation and self.index.qualify(parent.func, scope) in _REGEX_COMPILERS:
                    return True
                name = callee_name(parent.func)
                return (
                    name in _MESSAGE_SINKS
                    or name.endswith(("Error", "Exception", "Warning"))
                    or "warn" in name
                )
            else:
                return isinstance(parent, cst.Raise)

    # ------------------------------------------------------------------ strings
    def comprehension_names(self, node: cst.CSTNode) -> dict[str, cst.BaseExpression]:
        """The names bound by the comprehensions around `node`, to the expressions they iterate."""
        names: dict[str, cst.BaseExpression] = {}
        current = self.tree.parents.get(node)
        while current is not None:
            if isinstance(current, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                names = {**_comprehension_targets(current), **names}
            current = self.tree.parents.get(current)
        return names

    def is_string_set(
        self,
        expr: cst.BaseExpression,
        scope: Scope,
        local: Mapping[str, cst.BaseExpression],
        depth: int,
    ) -> bool:
        """Whether `expr` is a set (or frozenset) known to hold strings."""
        if depth > _MAX_DEPTH:
            return False
        if isinstance(expr, cst.Set):
            return self._all_strings(expr.elements, scope, local, depth)
        if isinstance(expr, cst.SetComp):
            return self.is_str(
                expr.elt, scope, {**local, **_comprehension_targets(expr)}, depth + 1
            )
        if isinstance(expr, cst.Call):
            if self.index.qualify(expr.func, scope) in _SET_TYPES:
                return (
                    len(expr.args) == 1
                    and not expr.args[0].star
                    and self.has_string_items(expr.args[0].value, scope, local, depth + 1)
                )
            return (
                isinstance(expr.func, cst.Attribute)
                and expr.func.attr.value in _SET_RETURNING_METHODS
                and self.is_string_set(expr.func.value, scope, local, depth + 1)
            )
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, (cst.BitOr, cst.BitXor, cst.BitAnd)):
                return self.is_string_set(expr.left, scope, local, depth + 1) or self.is_string_set(
                    expr.right, scope, local, depth + 1
                )
            return isinstance(expr.operator, cst.Subtract) and self.is_string_set(
                expr.left, scope, local, depth + 1
            )
        if isinstance(expr, cst.Name) and expr.value not in local:
            bound = self._binding(expr.value, scope)
            if bound is None:
                return False
            value, defining = bound
            empty = isinstance(value, cst.Call) and not value.args
            if empty and self.index.qualify(value.func, defining) in _SET_TYPES:
                return self._filled_with_strings(expr.value, defining, depth)
            if value is not None:
                return self.is_string_set(value, defining, {}, depth + 1)
            return self._annotated(expr.value, defining, _SET_ANNOTATIONS)
        value_of_attribute = self._self_attribute(expr, scope)
        return value_of_attribute is not None and self.is_string_set(
            *value_of_attribute, {}, depth + 1
        )

    def has_string_items(
        self,
        expr: cst.BaseExpression,
        scope: Scope,
        local: Mapping[str, cst.BaseExpression],
        depth: int,
    ) -> bool:
        """Whether iterating `expr` is known to give strings."""
        if depth > _MAX_DEPTH:
            return False
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return self.is_str(expr, scope, local, depth + 1)  # its characters
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return self._all_strings(expr.elements, scope, local, depth)
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.is_str(
                expr.elt, scope, {**local, **_comprehension_targets(expr)}, depth + 1
            )
        if isinstance(expr, cst.Call):
            return self._call_gives_strings(expr, scope, local, depth)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            return self.has_string_items(
                expr.left, scope, local, depth + 1
            ) or self.has_string_items(expr.right, scope, local, depth + 1)
        if isinstance(expr, cst.Name):
            if self.is_str(expr, scope, local, depth + 1):
                return True
            if expr.value in local:
                return False
            bound = self._binding(expr.value, scope)
            if bound is None:
                return False
            value, defining = bound
            if value is not None:
                return self.has_string_items(value, defining, {}, depth + 1)
            return self._annotated(expr.value, defining, _ITERABLE_ANNOTATIONS)
        value_of_attribute = self._self_attribute(expr, scope)
        return value_of_attribute is not None and self.has_string_items(
            *value_of_attribute, {}, depth + 1
        )

    def _call_gives_strings(
        self, call: cst.Call, scope: Scope, local: Mapping[str, cst.BaseExpression], depth: int
    ) -> bool:
        qualified = self.index.qualify(call.func, scope)
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if qualified == "builtins.open":
            return True  # its lines
        if qualified in _ITEM_KEEPING_CALLS:
            return bool(positional) and self.has_string_items(
                positional[0], scope, local, depth + 1
            )
        if qualified == "builtins.map":
            return bool(positional) and self.index.qualify(positional[0], scope) == "builtins.str"
        if not isinstance(call.func, cst.Attribute):
            return False
        method = call.func.attr.value
        if method == "readlines":
            return True
        # `text.split()` / `line.split(",")`: tensors and arrays split by sizes, not by a string.
        return method in _SPLIT_METHODS and (
            not positional or isinstance(positional[0], (cst.SimpleString, cst.ConcatenatedString))
        )

    def is_str(
        self,
        expr: cst.BaseExpression,
        scope: Scope,
        local: Mapping[str, cst.BaseExpression],
        depth: int,
    ) -> bool:
        """Whether `expr` is known to be a `str`."""
        if depth > _MAX_DEPTH:
            return False
        if isinstance(expr, cst.SimpleString):
            return isinstance(expr.evaluated_value, str)
        if isinstance(expr, cst.ConcatenatedString):
            return self.is_str(expr.left, scope, local, depth + 1)
        if isinstance(expr, cst.FormattedString):
            return True
        if isinstance(expr, cst.Call):
            if self.index.qualify(expr.func, scope) in _STR_FUNCTIONS:
                return True
            return isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _STR_METHODS
        if isinstance(expr, cst.BinaryOperation) and isinstance(
            expr.operator, (cst.Add, cst.Modulo)
        ):
            return self.is_str(expr.left, scope, local, depth + 1) or (
                isinstance(expr.operator, cst.Add)
                and self.is_str(expr.right, scope, local, depth + 1)
            )
        if isinstance(expr, cst.Subscript) and len(expr.slice) == 1:
            if isinstance(expr.slice[0].slice, cst.Slice):
                return self.is_str(expr.value, scope, local, depth + 1)
            return self.has_string_items(expr.value, scope, local, depth + 1)
        if isinstance(expr, cst.Name):
            if expr.value in local:
                return self.has_string_items(local[expr.value], scope, local, depth + 1)
            bound = self._binding(expr.value, scope)
            if bound is None:
                return False
            value, defining = bound
            if value is not None:
                return self.is_str(value, defining, {}, depth + 1)
            loop = self._enclosing_loop(expr)
            if loop is not None:
                return self.has_string_items(loop, defining, {}, depth + 1)
            return self._annotated(expr.value, defining, frozenset())
        return False

    def _all_strings(
        self, elements, scope: Scope, local: Mapping[str, cst.BaseExpression], depth: int
    ) -> bool:
        return bool(elements) and all(
            self.has_string_items(element.value, scope, local, depth + 1)
            if isinstance(element, cst.StarredElement)
            else self.is_str(element.value, scope, local, depth + 1)
            for element in elements
        )

    # ------------------------------------------------------------------- names
    def _binding(self, name: str, scope: Scope) -> tuple[cst.BaseExpression | None, Scope] | None:
        """What a name is bound to (an expression, or None for parameters and loop targets) and
        where."""
        current: Scope | None = scope
        first = True
        while current is not None:
            if (first or current.kind != "class") and name in current.bindings:
                bound = current.bindings[name]
                if isinstance(bound, str):
                    return None  # an import, a definition, or several bindings
                return bound, current
            first, current = False, current.parent
        return None

    def _filled_with_strings(self, name: str, scope: Scope, depth: int) -> bool:
        """`name = set()` then `name.add(<str>)` / `name.update(<strings>)` in the same scope."""
        for call, call_scope in self.index.all_calls:
            func = call.func
            if (
                call_scope is scope
                and isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.value.value == name
                and func.attr.value in ("add", "update")
                and len(call.args) == 1
            ):
                value = call.args[0].value
                local = self.comprehension_names(call)
                if (
                    self.is_str(value, scope, local, depth + 1)
                    if func.attr.value == "add"
                    else self.has_string_items(value, scope, local, depth + 1)
                ):
                    return True
        return False

    def _enclosing_loop(self, name: cst.Name) -> cst.BaseExpression | None:
        """What the innermost `for <name> in ..` loop around a use of the name iterates."""
        current = self.tree.parents.get(name)
        while current is not None and not isinstance(current, (cst.FunctionDef, cst.ClassDef)):
            if (
                isinstance(current, cst.For)
                and isinstance(current.target, cst.Name)
                and (current.target.value == name.value)
            ):
                return current.iter
            current = self.tree.parents.get(current)
        return None

    def _annotated(self, name: str, scope: Scope, containers: frozenset[str]) -> bool:
        """Whether `name` is annotated `str`, or (with `containers`) as one of them of `str`."""
        annotation = self._annotations.get((scope, name))
        if annotation is None:
            function = self.index.function_of_scope.get(scope)
            params = function.node.params if function is not None else None
            for param in (
                (*params.posonly_params, *params.params, *params.kwonly_params) if params else ()
            ):
                if param.name.value == name and param.annotation is not None:
                    annotation = param.annotation.annotation
        if annotation is None:
            return False
        if not containers:
            return self.index.qualify(annotation, scope) == "builtins.str"
        return (
            isinstance(annotation, cst.Subscript)
            and self.index.qualify(annotation.value, scope) in containers
            and isinstance(annotation.slice[0].slice, cst.Index)
            and self.index.qualify(annotation.slice[0].slice.value, scope) == "builtins.str"
        )

    @cached_property
    def _annotations(self) -> dict[tuple[Scope, str], cst.BaseExpression]:
        return {
            (statement.scope, target.value): statement.node.annotation.annotation
            for statement, target, _ in self.context.index.assignments()
            if isinstance(statement.node, cst.AnnAssign) and isinstance(target, cst.Name)
        }

    def _self_attribute(
        self, expr: cst.BaseExpression, scope: Scope
    ) -> tuple[cst.BaseExpression, Scope] | None:
        """The one value assigned to `self.<attr>` in the class's methods."""
        if not (
            isinstance(expr, cst.Attribute)
            and isinstance(expr.value, cst.Name)
            and expr.value.value == "self"
        ):
            return None
        values = scope.owner_class.attributes.get(expr.attr.value, []) if scope.owner_class else []
        return values[0] if len(values) == 1 else None


def _comprehension_targets(comprehension: cst.CSTNode) -> dict[str, cst.BaseExpression]:
    """The plain names a comprehension's `for` clauses bind, to what they iterate."""
    names: dict[str, cst.BaseExpression] = {}
    clause = comprehension.for_in
    while clause is not None:
        if isinstance(clause.target, cst.Name):
            names[clause.target.value] = clause.iter
        clause = clause.inner_for_in
    return names


# Methods whose argument's order does not matter: `name.startswith(prefixes)`.
_ORDER_FREE_METHODS = frozenset({"startswith", "endswith"})
_REGEX_COMPILERS = frozenset({"re.compile", "re.match", "re.search", "re.fullmatch"})
# Calls that only show a string to a person: `print`, `warnings.warn`, logging methods.
_MESSAGE_SINKS = frozenset(
    {"print", "warn", "info", "debug", "warning", "error", "exception", "critical", "log"}
)


def _is_join(call: cst.Call) -> bool:
    """`sep.join(items)`: the joined string has the items' order."""
    return (
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value == "join"
        and len(call.args) == 1
    )
