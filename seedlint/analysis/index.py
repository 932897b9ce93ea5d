"""One pass over a parsed module: scopes, imports, local definitions, statements and calls.

Everything rules ask about names goes through `ModuleIndex.qualify`, which resolves an
expression to the dotted name it refers to through every import form and simple alias:
`import torch.backends.cudnn as cudnn`, `from numpy import random as npr`, `cudnn =
torch.backends.cudnn`. Instances are typed by the call that made them: after `g =
torch.Generator()`, `g.manual_seed` qualifies to `torch.Generator().manual_seed`.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from seedlint.analysis.walk import calls_in

BUILTIN_NAMES = frozenset(dir(builtins))
_STAR_LIBRARIES = frozenset(sys.stdlib_module_names) | {"torch", "numpy"}
_AMBIGUOUS = "<ambiguous>"

# Methods that return the object they are called on, so `torch.Generator().manual_seed(0)`
# is still a `torch.Generator()`.
_SELF_RETURNING = {"torch.Generator().manual_seed()": "torch.Generator()"}
# `nn.Module` methods that return the module itself.
_MODULE_RETURNING_ITSELF = frozenset(
    {"cuda", "cpu", "to", "train", "eval", "float", "half", "double", "requires_grad_"}
)


@dataclass(eq=False)
class Scope:
    """A module, function or class scope and the names bound in it."""

    kind: str  # "module" | "function" | "class"
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, cst.BaseExpression | str | None] = field(default_factory=dict)
    owner_class: ClassInfo | None = None
    # every binding
    values: dict[str, list[cst.BaseExpression | str | None]] = field(default_factory=dict)

    def bind(self, name: str, value: cst.BaseExpression | str | None) -> None:
        self.values.setdefault(name, []).append(value)
        if name in self.bindings and self.bindings[name] is not value:
            previous = self.bindings[name]
            if isinstance(previous, str) and isinstance(value, str) and previous == value:
                return
            self.bindings[name] = _AMBIGUOUS
            return
        self.bindings[name] = value

    def within(self, outer: Scope) -> bool:
        """Whether this scope is `outer` or nested in it."""
        scope: Scope | None = self
        while scope is not None:
            if scope is outer:
                return True
            scope = scope.parent
        return False


@dataclass(eq=False)
class FunctionInfo:
    qualified: str
    node: cst.FunctionDef
    scope: Scope
    owner_class: ClassInfo | None = None


@dataclass(eq=False)
class ClassInfo:
    qualified: str
    node: cst.ClassDef
    scope: Scope
    bases: list[str] = field(default_factory=list)
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    # `self.<name> = value` assignments in its methods: name -> [(value, the method's scope)]
    attributes: dict[str, list[tuple[cst.BaseExpression, Scope]]] = field(default_factory=dict)


@dataclass(eq=False, slots=True)
class Statement:
    """A statement in a block, with the calls its own expressions make in evaluation order.

    `node` is the small statement (or compound statement); `line` is what sits in the block
    (a SimpleStatementLine/Suite holding `node`, or the compound statement itself).
    """

    node: cst.CSTNode
    line: cst.CSTNode
    block: Sequence[cst.CSTNode]
    scope: Scope
    calls: list[cst.Call]
    # the statements of its block
    siblings: list[Statement] = field(default_factory=list, repr=False)
    position: int = 0  # its index in `siblings`


def defining_scope(name: str, scope: Scope) -> Scope | None:
    """The scope whose binding of `name` code in `scope` reads (a class body's names are seen from
    that body only, not from its methods), or None when no scope of the module binds it."""
    current: Scope | None = scope
    first = True
    while current is not None:
        if (first or current.kind != "class") and name in current.bindings:
            return current
        first, current = False, current.parent
    return None


class ModuleIndex:
    """Scopes, definitions, statements and calls of one module, built in one walk."""

    def __init__(
        self,
        module: cst.Module,
        module_name: str,
        is_package: bool = False,
        localise: Callable[[str], str] | None = None,
    ) -> None:
        self.module = module
        self.module_name = module_name
        # what an absolute import's module name finds from this module (`ModuleFinder.localise`)
        self.localise = localise or (lambda name: name)
        self.is_package = (
            is_package  # an `__init__.py`: relative imports start from the module itself
        )
        self.module_scope = Scope("module", module, None)
        self.functions: dict[str, FunctionInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.statements: dict[cst.CSTNode, list[Statement]] = {}  # block owner -> statements
        self.all_calls: list[tuple[cst.Call, Scope]] = []
        self.statement_of: dict[cst.Call, Statement] = {}  # every call -> the statement making it
        self.function_of_scope: dict[Scope, FunctionInfo] = {}
        # a module-level function defined again (a notebook cell redone): every definition, in order
        self._redefined: dict[str, list[FunctionInfo]] = {}
        # (id(expr), id(scope)) -> (expr, scope, what it qualifies to): the expression and scope are
        # kept, so that an id is never that of another object made after one asked for was freed
        # (a node built for a question, say)
        self._qualify_cache: dict[tuple[int, int], tuple[cst.CSTNode, Scope, str | None]] = {}
        self._blocks: dict[cst.CSTNode, list[list[Statement]]] = {}
        self._compound_of_block: dict[
            int, Statement
        ] = {}  # id(statement list) -> the compound owning it
        self._qualifying: set[tuple[str, int]] = set()  # names bound more than once, being read
        self.star_imports: list[str] = []  # the modules of `from module import *`, in order
        # Set by a project: what a name brought by the star imports is (`models.DeepLab`, or
        # `torch` for the `import torch` of a star-imported module).
        self.star_meaning: Callable[[Sequence[str], str], str | None] | None = None
        self._index_block(module, module.body, self.module_scope)

    def unlink(self) -> None:
        """Break its cycles (a statement and its block's list, a class and its scopes and
        methods), so that once dropped it is freed at once, not when the garbage collector finds
        it; not to be used after."""
        for statements in self.statements.values():
            statements.clear()
        self.__dict__.pop("_statements_by_scope", None)
        for scope, function in self.function_of_scope.items():
            scope.owner_class = function.owner_class = None
        for info in self.classes.values():
            info.scope.owner_class = None

    # ----------------------------------------------------------------- building

    def _index_block(self, owner: cst.CSTNode, body: Sequence[cst.CSTNode], scope: Scope) -> None:
        statements: list[Statement] = []
        self.statements[owner] = statements
        for line in body:
            if isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                for small in line.body:
                    self._bind_small(small, scope)
                    self._add(
                        statements,
                        Statement(small, line, body, scope, self._calls_in(small, scope)),
                    )
            else:
                compound = Statement(line, line, body, scope, self._header_calls(line, scope))
                self._add(statements, compound)
                self._index_compound(line, scope)
                self._blocks[line] = [self.statements.get(suite, []) for suite in _suites(line)]
                for block in self._blocks[line]:
                    self._compound_of_block[id(block)] = compound

    def _add(self, statements: list[Statement], statement: Statement) -> None:
        statement.siblings, statement.position = statements, len(statements)
        statements.append(statement)
        for call in statement.calls:
            self.statement_of[call] = statement

    def _index_suite(self, suite: cst.CSTNode, scope: Scope) -> None:
        if isinstance(suite, cst.IndentedBlock):
            self._index_block(suite, suite.body, scope)
        else:  # `if x: a(); b()` (a SimpleStatementSuite), or an `elif`
            self._index_block(suite, (suite,), scope)

    def _index_compound(self, node: cst.CSTNode, scope: Scope) -> None:
        if isinstance(node, cst.FunctionDef):
            self._index_function(node, scope)
        elif isinstance(node, cst.ClassDef):
            self._index_class(node, scope)
        else:
            if isinstance(node, (cst.For, cst.With)):
                targets = (
                    [node.target]
                    if isinstance(node, cst.For)
                    else [item.asname.name for item in node.items if item.asname is not None]
                )
                for target in targets:
                    for name in _target_names(target):
                        scope.bind(name, None)
            for suite in _suites(node):
                self._index_suite(suite, scope)

    def _index_function(self, node: cst.FunctionDef, scope: Scope) -> None:
        name = node.name.value
        owner_class = scope.owner_class if scope.kind == "class" else None
        qualified = (
            f"{owner_class.qualified}.{name}" if owner_class else self._child_name(scope, name)
        )
        function_scope = Scope("function", node, scope, owner_class=owner_class)
        info = FunctionInfo(qualified, node, function_scope, owner_class)
        for param in all_parameters(node):
            function_scope.bind(param.name.value, None)
        if owner_class is not None:
            owner_class.methods.setdefault(name, info)
        else:
            scope.bind(name, qualified)
        if qualified in self.functions and scope is self.module_scope:
            self._redefined.setdefault(qualified, [self.functions[qualified]]).append(info)
        self.functions[qualified] = info
        self.function_of_scope[function_scope] = info
        self._index_suite(node.body, function_scope)

    def _index_class(self, node: cst.ClassDef, scope: Scope) -> None:
        name = node.name.value
        qualified = self._child_name(scope, name)
        class_scope = Scope("class", node, scope)
        info = ClassInfo(qualified, node, class_scope)
        class_scope.owner_class = info
        info.bases = [base for arg in node.bases if (base := self.qualify(arg.value, scope))]
        scope.bind(name, qualified)
        self.classes[qualified] = info
        self._index_suite(node.body, class_scope)

    def _child_name(self, scope: Scope, name: str) -> str:
        if scope.kind == "module":
            return f"{self.module_name}.{name}"
        function = self.function_of_scope.get(scope)
        prefix = function.qualified if function else self.module_name
        return f"{prefix}.<locals>.{name}"

    def _bind_small(self, small: cst.BaseSmallStatement, scope: Scope) -> None:
        if isinstance(small, cst.Import):
            for alias in small.names:
                dotted = dotted_name(alias.name) or ""
                if alias.asname is not None:
                    scope.bind(alias.asname.name.value, self.localise(dotted))
                else:
                    top = dotted.split(".")[0]
                    scope.bind(top, self.localise(top))
        elif isinstance(small, cst.ImportFrom):
            base = self.import_base(small)
            if isinstance(small.names, cst.ImportStar):
                self.star_imports.append(base)
                return
            for alias in small.names:
                imported = dotted_name(alias.name) or ""
                local = alias.asname.name.value if alias.asname is not None else imported
                scope.bind(local, f"{base}.{imported}" if base else imported)
        elif isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            value = small.value
            targets = (
                [t.target for t in small.targets]
                if isinstance(small, cst.Assign)
                else [small.target]
            )
            for target in targets:
                if isinstance(target, cst.Name):
                    scope.bind(target.value, value if isinstance(small, cst.Assign) else None)
                elif (
                    isinstance(target, cst.Attribute)
                    and isinstance(target.value, cst.Name)
                    and target.value.value == "self"
                    and scope.owner_class is not None
                    and value is not None
                ):
                    scope.owner_class.attributes.setdefault(target.attr.value, []).append(
                        (value, scope)
                    )
                else:
                    for name in _target_names(target):
                        scope.bind(name, None)

    def import_base(self, node: cst.ImportFrom) -> str:
        """The module a `from .. import` statement imports from, as this module finds it."""
        module = (dotted_name(node.module) if node.module is not None else None) or ""
        level = len(node.relative)
        if not level:
            return self.localise(module) if module else module
        package = self.module_name.split(".")
        package = package[: max(len(package) - level + self.is_package, 0)]
        return ".".join([*package, module] if module else package)

    # ------------------------------------------------------------------- calls
    def _calls_in(self, node: cst.CSTNode, scope: Scope) -> list[cst.Call]:
        calls = calls_in(node)
        self.all_calls.extend((call, scope) for call in calls)
        return calls

    def _header_calls(self, node: cst.CSTNode, scope: Scope) -> list[cst.Call]:
        headers: list[cst.CSTNode] = []
        if isinstance(node, (cst.If, cst.While)):
            headers.append(node.test)
        elif isinstance(node, cst.For):
            headers.append(node.iter)
        elif isinstance(node, cst.With):
            headers.extend(item.item for item in node.items)
        elif isinstance(node, cst.Match):
            headers.append(node.subject)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            headers.extend(decorator.decorator for decorator in node.decorators)
            if isinstance(node, cst.ClassDef):
                headers.extend(arg.value for arg in node.bases)
        calls: list[cst.Call] = []
        for header in headers:
            calls.extend(self._calls_in(header, scope))
        return calls

    # --------------------------------------------------------------- resolution
    def lookup(self, name: str, scope: Scope) -> cst.BaseExpression | str | None:
        defining = defining_scope(name, scope)
        if defining is not None:
            return defining.bindings[name]
        return f"builtins.{name}" if name in BUILTIN_NAMES else self._star_imported(name)

    def _star_imported(self, name: str) -> str | None:
        """`module.name` for a name nothing binds, from the `from module import *` that brings it:
        the last that defines it (asked of the project), else the last that can be the project's
        (not the standard library's, torch's or NumPy's). `from utils import *` then
        `set_seed(0)`; a module the star-imported module imports is that module (`torch`)."""
        if not self.star_imports or not name.isidentifier():
            return None
        meaning = self.star_meaning(self.star_imports, name) if self.star_meaning else None
        if meaning is not None:
            return meaning
        modules = [
            module
            for module in self.star_imports
            if module.partition(".")[0] not in _STAR_LIBRARIES
        ]
        return f"{modules[-1]}.{name}" if modules else None

    def bound_values(self, name: str, scope: Scope) -> list[cst.BaseExpression | str | None]:
        """Every value a name is bound to in the scope that defines it (`ds = load(..)`, then `ds =
        ds.map(f)`)."""
        defining = defining_scope(name, scope) or scope
        return defining.values.get(name, [])

    def qualify(self, expr: cst.CSTNode, scope: Scope, _depth: int = 0) -> str | None:
        """The dotted name `expr` refers to, or None when it is not statically known."""
        key = (id(expr), id(scope))
        known = self._qualify_cache.get(key)
        if known is not None and known[0] is expr and known[1] is scope:
            return known[2]
        result = self._qualify(expr, scope, _depth) if _depth < 12 else None
        self._qualify_cache[key] = (expr, scope, result)
        return result

    def _qualify(self, expr: cst.CSTNode, scope: Scope, depth: int) -> str | None:
        if isinstance(expr, cst.Name):
            bound = self.lookup(expr.value, scope)
            if bound == _AMBIGUOUS:
                return self._qualify_every_binding(expr.value, scope, depth)
            if isinstance(bound, str):
                return bound
            if isinstance(bound, cst.BaseExpression):
                if isinstance(bound, (cst.Name, cst.Attribute, cst.Call)):
                    return self.qualify(
                        bound, defining_scope(expr.value, scope) or scope, depth + 1
                    )
            return None
        if isinstance(expr, cst.Attribute):
            if isinstance(expr.value, cst.Name) and expr.value.value == "self":
                return self._qualify_self_attribute(expr.attr.value, scope, depth)
            base = self.qualify(expr.value, scope, depth + 1)
            return f"{base}.{expr.attr.value}" if base else None
        if isinstance(expr, cst.Call):
            func = self.qualify(expr.func, scope, depth + 1)
            if func is None:
                return None
            called = f"{func}()"
            base, _, method = func.rpartition(".")
            if method in _MODULE_RETURNING_ITSELF and base.endswith("()"):
                # `Trainer(model).cuda()`: a module's `cuda`, `to`, `train`, .. return it (not
                # a class of the module that defines its own: `def train(self, epochs)`)
                cls = self.classes.get(base[:-2])
                if base[:-2].rpartition(".")[2][:1].isupper() and (
                    cls is None or self.find_method(cls, method) is None
                ):
                    return base
            return _SELF_RETURNING.get(called, called)
        return None

    def _qualify_every_binding(self, name: str, scope: Scope, depth: int) -> str | None:
        """What a name bound more than once refers to, when every binding refers to the same
        (`execution = Execution(args)` on both sides of an `if`)."""
        defining = defining_scope(name, scope) or scope
        key = (name, id(defining))
        values = defining.values.get(name, [])
        if key in self._qualifying or len(values) > 8:
            return None  # `x = x.cuda()`: a binding that reads the name itself
        self._qualifying.add(key)
        try:
            found = {
                value
                if isinstance(value, str) and not value.startswith("<")
                else self.qualify(value, defining, depth + 1)
                if isinstance(value, (cst.Name, cst.Attribute, cst.Call))
                else None
                for value in values
            }
        finally:
            self._qualifying.discard(key)
        return found.pop() if len(found) == 1 else None

    def _qualify_self_attribute(self, attr: str, scope: Scope, depth: int) -> str | None:
        owner = scope.owner_class
        if owner is None:
            return None
        if self.find_method(owner, attr) is not None:
            return f"{owner.qualified}().{attr}"
        values = owner.attributes.get(attr, [])
        base = owner
        while not values and base.bases and base.bases[0] in self.classes and depth < 4:
            # `self.writer` bound only in the constructor of a base class of this module
            base = self.classes[base.bases[0]]
            values = base.attributes.get(attr, [])
            depth += 1
        if len(values) == 1 and isinstance(values[0][0], (cst.Name, cst.Attribute, cst.Call)):
            value, method_scope = values[0]
            return self.qualify(value, method_scope, depth + 1)
        return None

    def decorators(self, function: FunctionInfo) -> list[tuple[str | None, cst.Call | None]]:
        """Each decorator of a function, qualified, with its call where it is called
        (`@pytest.fixture(autouse=True)`)."""
        found = []
        for decorator in function.node.decorators:
            expression = decorator.decorator
            call = expression if isinstance(expression, cst.Call) else None
            func = call.func if call is not None else expression
            found.append((self.qualify(func, function.scope.parent or self.module_scope), call))
        return found

    def find_method(
        self, cls: ClassInfo, name: str, _seen: frozenset = frozenset()
    ) -> FunctionInfo | None:
        """A method of a module-local class, looked up through module-local bases."""
        if name in cls.methods:
            return cls.methods[name]
        for base in cls.bases:
            base_info = self.classes.get(base)
            if base_info is not None and base not in _seen:
                found = self.find_method(base_info, name, _seen | {cls.qualified})
                if found is not None:
                    return found
        return None

    def subclasses_of(
        self, cls: ClassInfo, qualified_bases: frozenset[str], _depth: int = 0
    ) -> bool:
        """Whether a module-local class derives from one of `qualified_bases`."""
        for base in cls.bases:
            if base in qualified_bases:
                return True
            base_info = self.classes.get(base)
            if (
                base_info is not None
                and _depth < 10
                and self.subclasses_of(base_info, qualified_bases, _depth + 1)
            ):
                return True
        return False

    def defines(self, qualified: str) -> bool:
        """Whether a qualified name is of this module's own code (`train.main`), not of a
        submodule of its package (`lib.utils.set_seed` seen from `lib/__init__.py`), nor of a
        package named like it (`example.utils.fix_seed` imported by the notebook
        `example/example.ipynb`)."""
        prefix = f"{self.module_name}."
        if not qualified.startswith(prefix):
            return False
        first = qualified[len(prefix) :].partition(".")[0]
        if self.is_package:
            return self.module_scope.bindings.get(first) == f"{prefix}{first}"
        return first.partition("(")[0] in self.module_scope.bindings  # `train.Net().fit` too

    def run_by_calling(self, name: str) -> FunctionInfo | None:
        """What calling the module's `name` runs: the function or method, or the class's
        constructor."""
        cls = self.classes.get(name)
        if cls is not None:
            return self.find_method(cls, "__init__")
        return self.functions.get(name)

    def resolve_local_call(self, call: cst.Call, scope: Scope) -> FunctionInfo | None:
        """The module-local function, method or `__init__` a call runs, if any."""
        qualified = self.qualify(call.func, scope)
        if qualified is None:
            return None
        if qualified in self.functions:
            if qualified in self._redefined and scope is self.module_scope:
                return self._defined_before(self._redefined[qualified], call)
            return self.functions[qualified]
        if qualified in self.classes:
            return self.find_method(self.classes[qualified], "__init__")
        owner, _, method = qualified.rpartition("().")
        if owner in self.classes and method:
            return self.find_method(self.classes[owner], method)
        if qualified.endswith("()") and qualified[:-2] in self.functions:
            # `main_loop = get_main_loop(..)`, then `main_loop(..)`: the closure it returns
            return self._returned_function(self.functions[qualified[:-2]])
        return None

    def _defined_before(self, definitions: list[FunctionInfo], call: cst.Call) -> FunctionInfo:
        """Of a module-level function's definitions, the one the module's own code calls at
        `call`: the last defined before the top-level statement making it (the last of all
        where none is)."""
        position = self._top_level_position
        statement: Statement | None = self.statement_of.get(call)
        while statement is not None and self.enclosing(statement) is not None:
            statement = self.enclosing(statement)
        at = position.get(statement.node) if statement is not None else None
        if at is None:
            return definitions[-1]
        before = [each for each in definitions if position.get(each.node, at) < at]
        return before[-1] if before else definitions[-1]

    @cached_property
    def _top_level_position(self) -> dict[cst.CSTNode, int]:
        """Each top-level statement's place in the module."""
        return {
            statement.node: place
            for place, statement in enumerate(self.statements.get(self.module_scope.node, []))
        }

    def _returned_function(self, function: FunctionInfo) -> FunctionInfo | None:
        """The function defined inside `function` that every `return` of it returns by name."""
        found = set()
        for statement in self.statements_in(function.scope):
            if isinstance(statement.node, cst.Return):
                value = statement.node.value
                bound = (
                    function.scope.bindings.get(value.value)
                    if isinstance(value, cst.Name)
                    else None
                )
                found.add(self.functions.get(bound) if isinstance(bound, str) else None)
        return found.pop() if len(found) == 1 else None

    def blocks_of(self, node: cst.CSTNode) -> list[list[Statement]]:
        """The statement lists of the bodies of a compound statement, in execution order."""
        return self._blocks.get(node, [])

    def enclosing(self, statement: Statement) -> Statement | None:
        """The compound statement (`if`, `for`, `with`, `def`...) whose body holds a statement."""
        return self._compound_of_block.get(id(statement.siblings))

    def assignments(
        self,
    ) -> Iterator[tuple[Statement, cst.BaseExpression, cst.BaseExpression | None]]:
        """(statement, target, value) for every assignment target in the module."""
        for statements in self.statements.values():
            for statement in statements:
                for target, value in assigned(statement.node):
                    yield statement, target, value

    @cached_property
    def calls_by_scope(self) -> dict[Scope, list[cst.Call]]:
        """Every call, grouped by the scope that makes it (its own code, not nested functions')."""
        grouped: dict[Scope, list[cst.Call]] = {}
        for call, scope in self.all_calls:
            grouped.setdefault(scope, []).append(call)
        return grouped

    def statements_in(self, scope: Scope) -> Iterator[Statement]:
        """Every statement of a scope's own code, in any of its blocks (not nested functions')."""
        yield from self._statements_by_scope.get(scope, ())

    @cached_property
    def _statements_by_scope(self) -> dict[Scope, list[Statement]]:
        """The statements of each scope's own code, in the order of their blocks (one pass over
        the module, not one per question)."""
        grouped: dict[Scope, list[Statement]] = {}
        for block in self.statements.values():
            for statement in block:
                grouped.setdefault(statement.scope, []).append(statement)
        return grouped

    def body_of(self, function: FunctionInfo) -> list[Statement]:
        return self.statements.get(function.node.body, [])


def all_parameters(function: cst.FunctionDef) -> list[cst.Param]:
    """Every parameter of a function, `*args` and `**kwargs` included."""
    params = function.params
    extra = [
        param for param in (params.star_arg, params.star_kwarg) if isinstance(param, cst.Param)
    ]
    return [*params.posonly_params, *params.params, *params.kwonly_params, *extra]


def parameter_names(function: cst.FunctionDef) -> set[str]:
    """The names of every parameter of a function."""
    return {param.name.value for param in all_parameters(function)}


def positional_parameters(function: FunctionInfo) -> list[cst.Param]:
    """The parameters a caller fills by position (a method's `self` excluded)."""
    params = function.node.params
    positional = [*params.posonly_params, *params.params]
    return positional[1:] if function.owner_class is not None and positional else positional


def bind_arguments(
    function: FunctionInfo, call: cst.Call
) -> Iterator[tuple[str, cst.BaseExpression]]:
    """(parameter name, argument) pairs of a call to `function`."""
    positional = positional_parameters(function)
    by_name = {p.name.value for p in [*positional, *function.node.params.kwonly_params]}
    position = 0
    for arg in call.args:
        if arg.star:
            continue
        if arg.keyword is None:
            if position < len(positional):
                yield positional[position].name.value, arg.value
            position += 1
        elif arg.keyword.value in by_name:
            yield arg.keyword.value, arg.value


def _suites(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The suites of a compound statement in source (and so execution) order."""
    if isinstance(node, cst.If):
        yield node.body
        if node.orelse is not None:
            if isinstance(node.orelse, cst.If):
                yield node.orelse  # an `elif`: indexed as a block holding one `if`
            else:
                yield node.orelse.body
    elif isinstance(node, (cst.For, cst.While)):
        yield node.body
        if node.orelse is not None:
            yield node.orelse.body
    elif isinstance(node, cst.Try):
        yield node.body
        for handler in node.handlers:
            yield handler.body
        if node.orelse is not None:
            yield node.orelse.body
        if node.finalbody is not None:
            yield node.finalbody.body
    elif isinstance(node, getattr(cst, "TryStar", ())):
        yield node.body
        for handler in node.handlers:
            yield handler.body
    elif isinstance(node, cst.Match):
        for case in node.cases:
            yield case.body
    elif isinstance(node, (cst.With, cst.FunctionDef, cst.ClassDef)):
        yield node.body


def is_main_guard(node: cst.CSTNode) -> bool:
    """`if __name__ == "__main__":`, whose body runs only when the module is run as a script."""
    if (
        not isinstance(node, cst.If)
        or not isinstance(node.test, cst.Comparison)
        or len(node.test.comparisons) != 1
    ):
        return False
    left, right = node.test.left, node.test.comparisons[0].comparator
    if not isinstance(node.test.comparisons[0].operator, cst.Equal):
        return False
    return {_literal_or_name(left), _literal_or_name(right)} == {"__name__", "'__main__'"}


def _literal_or_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.SimpleString) and node.evaluated_value == "__main__":
        return "'__main__'"
    return None


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a name or a chain of attributes on a name (compared without source positions)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base is not None else None
    return None


def _target_names(target: cst.BaseExpression) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


def assigned(node: cst.CSTNode) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression | None]]:
    """(target, value) of each target an assignment statement sets; a tuple unpacked from a tuple of
    the same length gives each element its value (`a.benchmark, a.deterministic = True, False`)."""
    if isinstance(node, cst.Assign):
        for target in node.targets:
            yield from _paired(target.target, node.value)
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        yield node.target, node.value


def _paired(
    target: cst.BaseExpression, value: cst.BaseExpression
) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression]]:
    sequences = (cst.Tuple, cst.List)
    if (
        isinstance(target, sequences)
        and isinstance(value, sequences)
        and len(target.elements) == len(value.elements)
        and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements))
    ):
        for inner, element in zip(target.elements, value.elements):
            yield from _paired(inner.value, element.value)
    else:
        yield target, value
