"""A libcst tree built from Python's own parser, without the text's formatting.

Most of what seedlint parses it only reads: other modules of the project (for what their functions
do) and linted files that turn out to have no finding. libcst's parser keeps every space and
comment and costs five to ten times what Python's `ast` does (and, while it parses, several times
the memory), so such a text is parsed by `ast` and its nodes rebuilt as the libcst nodes the
analysis walks: the same node types, fields and order as `libcst.parse_module` gives, with default
whitespace, no parentheses or comments, and no positions but each call's line. Literals keep their
text (an f-string or implicitly concatenated strings are parsed by libcst from their own text, a
`match` or `try`/`except*` statement from its lines). A text `ast` rejects, or whose identifiers
`ast` would normalise (NFKC), makes `lean_module` return None: the caller parses it with libcst.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import unicodedata
from collections.abc import Callable, Sequence

import libcst as cst


class _Lean:
    """libcst's node classes, as functions that build a node without calling the class (its
    `__init__` and `__post_init__` are half the cost of building a node). The fields a new node
    would make its own instance of (whitespace, an attribute's `Dot`) are given one shared
    instance instead: a lean tree is never edited or printed, and half of its objects would be
    whitespace."""

    def __getattr__(self, name: str) -> Callable[..., cst.CSTNode]:
        made = _builder(getattr(cst, name))
        setattr(self, name, made)
        return made


def _builder(node_type: type[cst.CSTNode]) -> Callable[..., cst.CSTNode]:
    """A function taking a node class's fields as its constructor does (positional or by name,
    with the same defaults, a default factory's value made once) that sets them on a new node."""
    defaults: dict[str, object] = {}
    parameters = []
    for field in dataclasses.fields(node_type):
        if field.default_factory is not dataclasses.MISSING:
            defaults[field.name] = field.default_factory()
        elif field.default is not dataclasses.MISSING:
            defaults[field.name] = field.default
        parameters.append(
            f"{field.name}=default_{field.name}" if field.name in defaults else field.name
        )
    # (the body's names other than the fields start with `_`, which no field's does)
    lines = [f"def build({', '.join(parameters)}):", "    node = _new(_type)"]
    lines += [
        f"    _set(node, {name!r}, {name})"
        for name in (f.name for f in dataclasses.fields(node_type))
    ]
    lines.append("    return node")
    namespace: dict[str, object] = {
        "_new": object.__new__,
        "_set": object.__setattr__,
        "_type": node_type,
        **{f"default_{name}": value for name, value in defaults.items()},
    }
    exec("\n".join(lines), namespace)  # noqa: S102 - the code is made above, from field names
    return namespace["build"]  # type: ignore[return-value]


_lean = _Lean()


_OPERATORS: dict[type, Callable[[], cst.CSTNode]] = {
    ast.Add: _lean.Add,
    ast.Sub: _lean.Subtract,
    ast.Mult: _lean.Multiply,
    ast.MatMult: _lean.MatrixMultiply,
    ast.Div: _lean.Divide,
    ast.FloorDiv: _lean.FloorDivide,
    ast.Mod: _lean.Modulo,
    ast.Pow: _lean.Power,
    ast.LShift: _lean.LeftShift,
    ast.RShift: _lean.RightShift,
    ast.BitOr: _lean.BitOr,
    ast.BitAnd: _lean.BitAnd,
    ast.BitXor: _lean.BitXor,
}
_AUGMENTED: dict[type, Callable[[], cst.CSTNode]] = {
    ast.Add: _lean.AddAssign,
    ast.Sub: _lean.SubtractAssign,
    ast.Mult: _lean.MultiplyAssign,
    ast.MatMult: _lean.MatrixMultiplyAssign,
    ast.Div: _lean.DivideAssign,
    ast.FloorDiv: _lean.FloorDivideAssign,
    ast.Mod: _lean.ModuloAssign,
    ast.Pow: _lean.PowerAssign,
    ast.LShift: _lean.LeftShiftAssign,
    ast.RShift: _lean.RightShiftAssign,
    ast.BitOr: _lean.BitOrAssign,
    ast.BitAnd: _lean.BitAndAssign,
    ast.BitXor: _lean.BitXorAssign,
}
_UNARY: dict[type, Callable[[], cst.CSTNode]] = {
    ast.Not: _lean.Not,
    ast.USub: _lean.Minus,
    ast.UAdd: _lean.Plus,
    ast.Invert: _lean.BitInvert,
}
_COMPARISONS: dict[type, Callable[[], cst.CSTNode]] = {
    ast.Eq: _lean.Equal,
    ast.NotEq: _lean.NotEqual,
    ast.Lt: _lean.LessThan,
    ast.LtE: _lean.LessThanEqual,
    ast.Gt: _lean.GreaterThan,
    ast.GtE: _lean.GreaterThanEqual,
    ast.Is: _lean.Is,
    ast.IsNot: _lean.IsNot,
    ast.In: _lean.In,
    ast.NotIn: _lean.NotIn,
}
_NAMED_CONSTANTS = {None: "None", True: "True", False: "False"}
# one string literal, with its prefix (implicitly concatenated ones are two or more)
_ONE_STRING = re.compile(
    r"""[rRbBuU]{0,2}(?:'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|"""
    r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""",
    re.DOTALL,
)


# compound statements parsed by libcst from their own lines (`ast` names, some newer than 3.10)
_FROM_TEXT = frozenset({"Match", "TryStar"})


class _NotRebuilt(Exception):
    """Syntax this module does not rebuild."""


class _Builder:
    """Rebuilds one module's `ast` as libcst nodes, keeping the line each call starts on."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)
        self.call_rows: dict[cst.Call, int] = {}
        self._expressions: dict[type, Callable] = {
            ast.Name: lambda node: _lean.Name(node.id),
            ast.Constant: self._constant,
            ast.JoinedStr: self._formatted,
            ast.Attribute: lambda node: _lean.Attribute(
                self.expression(node.value), _lean.Name(node.attr)
            ),
            ast.Call: self._call,
            ast.BinOp: lambda node: _lean.BinaryOperation(
                self.expression(node.left),
                _OPERATORS[type(node.op)](),
                self.expression(node.right),
            ),
            ast.UnaryOp: lambda node: _lean.UnaryOperation(
                _UNARY[type(node.op)](), self.expression(node.operand)
            ),
            ast.BoolOp: self._boolean,
            ast.Compare: lambda node: _lean.Comparison(
                self.expression(node.left),
                tuple(
                    _lean.ComparisonTarget(_COMPARISONS[type(op)](), self.expression(right))
                    for op, right in zip(node.ops, node.comparators)
                ),
            ),
            ast.IfExp: lambda node: _lean.IfExp(
                self.expression(node.test), self.expression(node.body), self.expression(node.orelse)
            ),
            ast.Lambda: lambda node: _lean.Lambda(
                self._parameters(node.args), self.expression(node.body)
            ),
            ast.Dict: lambda node: _lean.Dict(
                tuple(
                    _lean.StarredDictElement(self.expression(value))
                    if key is None
                    else _lean.DictElement(self.expression(key), self.expression(value))
                    for key, value in zip(node.keys, node.values)
                )
            ),
            ast.Set: lambda node: _lean.Set(self._elements(node.elts)),
            ast.List: lambda node: _lean.List(self._elements(node.elts)),
            ast.Tuple: self._tuple,
            ast.ListComp: lambda node: _lean.ListComp(
                self.expression(node.elt), self._for_in(node.generators)
            ),
            ast.SetComp: lambda node: _lean.SetComp(
                self.expression(node.elt), self._for_in(node.generators)
            ),
            ast.GeneratorExp: lambda node: _lean.GeneratorExp(
                self.expression(node.elt), self._for_in(node.generators)
            ),
            ast.DictComp: lambda node: _lean.DictComp(
                self.expression(node.key),
                self.expression(node.value),
                self._for_in(node.generators),
            ),
            ast.Await: lambda node: _lean.Await(self.expression(node.value)),
            ast.Yield: lambda node: _lean.Yield(
                self.expression(node.value) if node.value is not None else None
            ),
            ast.YieldFrom: lambda node: _lean.Yield(_lean.From(self.expression(node.value))),
            ast.NamedExpr: lambda node: _lean.NamedExpr(
                self.expression(node.target), self.expression(node.value)
            ),
            ast.Starred: lambda node: _lean.StarredElement(self.expression(node.value)),
            ast.Subscript: lambda node: _lean.Subscript(
                self.expression(node.value), self._subscript(node.slice)
            ),
            ast.Slice: lambda node: _lean.Slice(
                self._optional(node.lower), self._optional(node.upper), self._optional(node.step)
            ),
        }
        self._small: dict[type, Callable] = {
            ast.Expr: lambda node: _lean.Expr(self.expression(node.value)),
            ast.Assign: lambda node: _lean.Assign(
                tuple(_lean.AssignTarget(self.expression(target)) for target in node.targets),
                self.expression(node.value),
            ),
            ast.AnnAssign: lambda node: _lean.AnnAssign(
                self.expression(node.target),
                _lean.Annotation(self.expression(node.annotation)),
                self._optional(node.value),
            ),
            ast.AugAssign: lambda node: _lean.AugAssign(
                self.expression(node.target),
                _AUGMENTED[type(node.op)](),
                self.expression(node.value),
            ),
            ast.Return: lambda node: _lean.Return(self._optional(node.value)),
            ast.Raise: lambda node: _lean.Raise(
                self._optional(node.exc),
                _lean.From(self.expression(node.cause)) if node.cause is not None else None,
            ),
            ast.Assert: lambda node: _lean.Assert(
                self.expression(node.test), self._optional(node.msg)
            ),
            ast.Pass: lambda node: _lean.Pass(),
            ast.Break: lambda node: _lean.Break(),
            ast.Continue: lambda node: _lean.Continue(),
            ast.Delete: lambda node: _lean.Del(
                self.expression(node.targets[0])
                if len(node.targets) == 1
                else _lean.Tuple(self._elements(node.targets), lpar=(), rpar=())
            ),
            ast.Global: lambda node: _lean.Global(
                tuple(_lean.NameItem(_lean.Name(n)) for n in node.names)
            ),
            ast.Nonlocal: lambda node: _lean.Nonlocal(
                tuple(_lean.NameItem(_lean.Name(n)) for n in node.names)
            ),
            ast.Import: lambda node: _lean.Import(self._aliases(node.names)),
            ast.ImportFrom: self._import_from,
        }
        self._compound: dict[type, Callable] = {
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.ClassDef: self._class,
            ast.If: self._if,
            ast.For: self._for,
            ast.AsyncFor: self._for,
            ast.While: lambda node: _lean.While(
                self.expression(node.test), self._block(node.body), self._else(node)
            ),
            ast.With: self._with,
            ast.AsyncWith: self._with,
            ast.Try: self._try,
        }

    def close(self) -> None:
        """Forget its dispatch tables: their methods refer to it, a cycle the collector would
        otherwise have to find (with its copy of the text)."""
        self._expressions = self._small = self._compound = {}

    # ------------------------------------------------------------------ text
    def _text(self, node: ast.expr) -> str:
        """The source text of an expression."""
        first, last = node.lineno - 1, node.end_lineno - 1
        lines = self.lines
        if first == last:
            return _slice(lines[first], node.col_offset, node.end_col_offset)
        return (
            _slice(lines[first], node.col_offset, None)
            + "".join(lines[first + 1 : last])
            + _slice(lines[last], 0, node.end_col_offset)
        )

    def _from_text(self, node: ast.expr) -> cst.BaseExpression:
        """An expression parsed by libcst from its text (in brackets: it may span lines)."""
        return cst.parse_expression(f"({self._text(node)})")

    def _formatted(self, node: ast.JoinedStr) -> cst.BaseExpression:
        """An f-string, split from its text (`_fields`), its expressions built from their own
        text (as libcst does, so no call in them keeps a line); one beside other strings, or
        written in a way the split does not follow, parsed by libcst."""
        text = self._text(node)
        written = _F_STRING.fullmatch(text)
        if written is None or not _ONE_STRING.fullmatch(text, written.end(1)):
            return self._from_text(node)
        prefix, quote = written.group(1, 2)
        parts = _fields(text[written.end(2) : written.start(3)], "r" in prefix.lower())
        if parts is None:
            return self._from_text(node)
        lines, rows = self.lines, self.call_rows  # `_parts` builds from each field's own text
        try:
            built = self._parts(parts)
        except (SyntaxError, ValueError, _NotRebuilt):
            built = None
        finally:
            self.lines, self.call_rows = lines, rows
        if built is None:  # (its text read from the module's lines again)
            return self._from_text(node)
        return _lean.FormattedString(built, prefix + quote, quote)

    def _parts(self, parts: list) -> tuple[cst.BaseFormattedStringContent, ...]:
        """An f-string's parts (`_fields`) as libcst's nodes."""
        built: list[cst.BaseFormattedStringContent] = []
        for part in parts:
            if isinstance(part, str):
                built.append(_lean.FormattedStringText(part))
                continue
            expression, equal, conversion, spec = part
            code = f"({expression})"
            self.lines, self.call_rows = code.splitlines(keepends=True), {}
            built.append(
                _lean.FormattedStringExpression(
                    self.expression(ast.parse(code, mode="eval").body),
                    conversion,
                    self._parts(spec) if spec is not None else None,
                    equal=_lean.AssignEqual() if equal else None,
                )
            )
        return tuple(built)

    # ------------------------------------------------------------ expressions
    def expression(self, node: ast.expr) -> cst.BaseExpression:
        try:
            build = self._expressions[type(node)]
        except KeyError:
            raise _NotRebuilt(type(node).__name__) from None
        return build(node)

    def _optional(self, node: ast.expr | None) -> cst.BaseExpression | None:
        return self.expression(node) if node is not None else None

    def _constant(self, node: ast.Constant) -> cst.BaseExpression:
        value = node.value
        if value is None or value is True or value is False:
            return _lean.Name(_NAMED_CONSTANTS[value])
        if value is ...:
            return _lean.Ellipsis()
        text = self._text(node)
        if isinstance(value, (str, bytes)):
            if _ONE_STRING.fullmatch(text):
                return _lean.SimpleString(text)
            pieces = _concatenated(text)
            if pieces is None:
                return self._from_text(node)
            built: cst.BaseString = _lean.SimpleString(pieces[-1])
            for piece in reversed(pieces[:-1]):  # `"a" "b" "c"`: "a", then "b" "c"
                built = _lean.ConcatenatedString(_lean.SimpleString(piece), built)
            return built
        if isinstance(value, complex):
            return _lean.Imaginary(text)
        return _lean.Float(text) if isinstance(value, float) else _lean.Integer(text)

    def _call(self, node: ast.Call) -> cst.Call:
        arguments = [(argument, None) for argument in node.args]
        if node.keywords:
            arguments += [(keyword.value, keyword) for keyword in node.keywords]
            if node.args:  # in the order written (`f(*a, key=1, *b)`)
                arguments.sort(key=lambda pair: _start(pair[1] or pair[0]))
        call = _lean.Call(
            self.expression(node.func),
            tuple(self._argument(value, keyword) for value, keyword in arguments),
        )
        self.call_rows[call] = node.lineno
        return call

    def _argument(self, value: ast.expr, keyword: ast.keyword | None) -> cst.Arg:
        if keyword is not None:
            if keyword.arg is None:
                return _lean.Arg(self.expression(value), star="**")
            return _lean.Arg(self.expression(value), keyword=_lean.Name(keyword.arg))
        if type(value) is ast.Starred:
            return _lean.Arg(self.expression(value.value), star="*")
        return _lean.Arg(self.expression(value))

    def _boolean(self, node: ast.BoolOp) -> cst.BooleanOperation:
        operator = cst.And if type(node.op) is ast.And else cst.Or
        values = iter(node.values)
        built = self.expression(next(values))
        for value in values:
            built = _lean.BooleanOperation(built, operator(), self.expression(value))
        return built

    def _elements(self, nodes: Sequence[ast.expr]) -> tuple[cst.BaseElement, ...]:
        return tuple(
            _lean.StarredElement(self.expression(node.value))
            if type(node) is ast.Starred
            else _lean.Element(self.expression(node))
            for node in nodes
        )

    def _tuple(self, node: ast.Tuple) -> cst.Tuple:
        if node.elts:
            return _lean.Tuple(self._elements(node.elts), lpar=(), rpar=())
        return _lean.Tuple(())

    def _for_in(self, generators: list[ast.comprehension]) -> cst.CompFor:
        built = None
        for generator in reversed(generators):
            built = _lean.CompFor(
                self.expression(generator.target),
                self.expression(generator.iter),
                tuple(_lean.CompIf(self.expression(test)) for test in generator.ifs),
                built,
                _lean.Asynchronous() if generator.is_async else None,
            )
        return built

    def _subscript(self, node: ast.expr) -> tuple[cst.SubscriptElement, ...]:
        if type(node) is ast.Tuple and node.elts and not self._parenthesised(node):
            return tuple(_lean.SubscriptElement(self._slice(element)) for element in node.elts)
        return (_lean.SubscriptElement(self._slice(node)),)

    def _slice(self, node: ast.expr) -> cst.BaseSlice:
        built = self.expression(node)
        return built if type(node) is ast.Slice else _lean.Index(built)

    def _parenthesised(self, node: ast.Tuple) -> bool:
        first = node.elts[0]
        return _start(node) != _start(first) and self._text(node).startswith("(")

    def _parameters(self, arguments: ast.arguments) -> cst.Parameters:
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
        params = tuple(map(self._param, positional, defaults))
        split = len(arguments.posonlyargs)
        star_arg = (
            self._star_param(arguments.vararg, "*")
            if arguments.vararg is not None
            else _lean.ParamStar()
            if arguments.kwonlyargs
            else cst.MaybeSentinel.DEFAULT
        )
        return _lean.Parameters(
            params=params[split:],
            star_arg=star_arg,
            kwonly_params=tuple(map(self._param, arguments.kwonlyargs, arguments.kw_defaults)),
            star_kwarg=(
                self._star_param(arguments.kwarg, "**") if arguments.kwarg is not None else None
            ),
            posonly_params=params[:split],
            posonly_ind=_lean.ParamSlash() if split else cst.MaybeSentinel.DEFAULT,
        )

    def _param(self, argument: ast.arg, default: ast.expr | None) -> cst.Param:
        return _lean.Param(
            _lean.Name(argument.arg),
            self._annotation(argument.annotation),
            default=self._optional(default),
            star="",
        )

    def _star_param(self, argument: ast.arg, star: str) -> cst.Param:
        return _lean.Param(
            _lean.Name(argument.arg), self._annotation(argument.annotation), star=star
        )

    def _annotation(self, node: ast.expr | None) -> cst.Annotation | None:
        return _lean.Annotation(self.expression(node)) if node is not None else None

    # ------------------------------------------------------------- statements
    def module(self, tree: ast.Module) -> cst.Module:
        return _lean.Module(tuple(self._statements(tree.body)))

    def _statements(self, nodes: list[ast.stmt]) -> list[cst.BaseStatement]:
        built: list[cst.BaseStatement] = []
        line: list[cst.BaseSmallStatement] = []
        last_row = -1
        for node in nodes:
            small = self._small.get(type(node))
            if small is None:
                if line:
                    built.append(_lean.SimpleStatementLine(tuple(line)))
                    line = []
                compound = self._compound.get(type(node))
                if compound is None:
                    if type(node).__name__ not in _FROM_TEXT:
                        raise _NotRebuilt(type(node).__name__)
                    compound = self._statement_from_text
                built.append(compound(node))
                continue
            if line and node.lineno != last_row:  # `a = 1; b = 2` share a line
                built.append(_lean.SimpleStatementLine(tuple(line)))
                line = []
            line.append(small(node))
            last_row = node.end_lineno
        if line:
            built.append(_lean.SimpleStatementLine(tuple(line)))
        return built

    def _statement_from_text(self, node: ast.stmt) -> cst.BaseCompoundStatement:
        """A compound statement not rebuilt here (`match`, `try`/`except*`), parsed by libcst
        from its lines (inside an `if` when it is indented)."""
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        lines = "".join(self.lines[first - 1 : node.end_lineno])
        if node.col_offset == 0:
            return cst.parse_module(lines).body[0]
        return cst.parse_module(f"if 1:\n{lines}").body[0].body.body[0]  # type: ignore[attr-defined]

    def _block(self, body: list[ast.stmt]) -> cst.BaseSuite:
        first = body[0]
        before = _slice(self.lines[first.lineno - 1], 0, first.col_offset)
        if before.strip():  # `if x: return` (the body on the header's line)
            return _lean.SimpleStatementSuite(tuple(self._small[type(node)](node) for node in body))
        return _lean.IndentedBlock(tuple(self._statements(body)))

    def _else(self, node: ast.For | ast.While | ast.Try) -> cst.Else | None:
        return _lean.Else(self._block(node.orelse)) if node.orelse else None

    def _decorators(self, node: ast.FunctionDef | ast.ClassDef) -> tuple[cst.Decorator, ...]:
        return tuple(
            _lean.Decorator(self.expression(decorator)) for decorator in node.decorator_list
        )

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> cst.FunctionDef:
        if getattr(node, "type_params", None):  # Python 3.12's `def f[T]()`
            return self._statement_from_text(node)
        return _lean.FunctionDef(
            _lean.Name(node.name),
            self._parameters(node.args),
            self._block(node.body),
            self._decorators(node),
            self._annotation(node.returns),
            _lean.Asynchronous() if type(node) is ast.AsyncFunctionDef else None,
        )

    def _class(self, node: ast.ClassDef) -> cst.ClassDef:
        if getattr(node, "type_params", None):
            return self._statement_from_text(node)
        return _lean.ClassDef(
            _lean.Name(node.name),
            self._block(node.body),
            tuple(self._argument(base, None) for base in node.bases),
            tuple(self._argument(keyword.value, keyword) for keyword in node.keywords),
            self._decorators(node),
        )

    def _if(self, node: ast.If) -> cst.If:
        orelse = None
        if node.orelse:
            first = node.orelse[0]
            if (
                len(node.orelse) == 1
                and type(first) is ast.If
                and _slice(self.lines[first.lineno - 1], first.col_offset, None).startswith("elif")
            ):
                orelse = self._if(first)
            else:
                orelse = _lean.Else(self._block(node.orelse))
        return _lean.If(self.expression(node.test), self._block(node.body), orelse)

    def _for(self, node: ast.For | ast.AsyncFor) -> cst.For:
        return _lean.For(
            self.expression(node.target),
            self.expression(node.iter),
            self._block(node.body),
            self._else(node),
            _lean.Asynchronous() if type(node) is ast.AsyncFor else None,
        )

    def _with(self, node: ast.With | ast.AsyncWith) -> cst.With:
        return _lean.With(
            tuple(
                _lean.WithItem(
                    self.expression(item.context_expr),
                    _lean.AsName(self.expression(item.optional_vars))
                    if item.optional_vars is not None
                    else None,
                )
                for item in node.items
            ),
            self._block(node.body),
            _lean.Asynchronous() if type(node) is ast.AsyncWith else None,
        )

    def _try(self, node: ast.Try) -> cst.Try:
        return _lean.Try(
            self._block(node.body),
            tuple(
                _lean.ExceptHandler(
                    self._block(handler.body),
                    self._optional(handler.type),
                    _lean.AsName(_lean.Name(handler.name)) if handler.name is not None else None,
                )
                for handler in node.handlers
            ),
            self._else(node),
            _lean.Finally(self._block(node.finalbody)) if node.finalbody else None,
        )

    def _aliases(self, names: list[ast.alias]) -> tuple[cst.ImportAlias, ...]:
        return tuple(
            _lean.ImportAlias(
                _dotted(alias.name),
                _lean.AsName(_lean.Name(alias.asname)) if alias.asname is not None else None,
            )
            for alias in names
        )

    def _import_from(self, node: ast.ImportFrom) -> cst.ImportFrom:
        names = (
            _lean.ImportStar()
            if len(node.names) == 1 and node.names[0].name == "*"
            else self._aliases(node.names)
        )
        return _lean.ImportFrom(
            _dotted(node.module) if node.module else None,
            names,
            (_lean.Dot(),) * node.level,
        )


# an f-string: its prefix, its quotes, and the same quotes at its end
_F_STRING = re.compile(r"""([rR]?[fF][rR]?)('''|\"\"\"|'|")(?s:.*)(\2)""")


def _fields(body: str, raw: bool) -> list | None:
    """An f-string's parts as libcst splits them: its texts as written (`{{` kept), and its
    replacement fields as (expression, whether `=` follows it, conversion, the format spec's parts
    or None); None where the text is not read as simply."""
    parts: list = []
    start = position = 0
    while position < len(body):
        character = body[position]
        if character == "\\" and not raw:  # an escape; `\N{..}` names a character
            named = body.startswith("N{", position + 1)
            end = body.find("}", position) if named else position + 1
            if end < 0:
                return None
            position = end + 1
        elif body.startswith(("{{", "}}"), position):
            position += 2
        elif character == "}":
            return None
        elif character == "{":
            if position > start:
                parts.append(body[start:position])
            field = _field(body, position + 1)
            if field is None:
                return None
            parts.append(field[0])
            start = position = field[1]
        else:
            position += 1
    if position > start:
        parts.append(body[start:])
    return parts


def _field(body: str, position: int) -> tuple[tuple, int] | None:
    """The replacement field whose expression starts at `position`, and where the field ends."""
    depth, quote, start = 0, "", position
    while position < len(body):
        character = body[position]
        if quote:
            if body.startswith(quote, position):
                position += len(quote)
                quote = ""
            else:
                position += 1
            continue
        if character in "'\"":
            triple = body.startswith(character * 3, position)
            quote = character * 3 if triple else character
            position += len(quote)
            continue
        if character in "([{":
            depth += 1
        elif character in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (
            character == ":" or character == "!" and not body.startswith("!=", position)
        ):
            break
        elif character in "#\\":
            return None
        position += 1
    else:
        return None
    expression = body[start:position].rstrip()
    equal = expression.endswith("=")
    if equal:
        if expression[-2:-1] in ("=", "!", "<", ">"):
            return None
        expression = expression[:-1]
    if not expression.strip() or body[position] in ")]":
        return None
    conversion = None
    if body[position] == "!":
        conversion = body[position + 1 : position + 2]
        if conversion not in ("r", "s", "a"):
            return None
        position += 2
    spec = None
    if body[position : position + 1] == ":":
        spec, position = _spec(body, position + 1)
        if not spec:
            return None
    if body[position : position + 1] != "}":
        return None
    return (expression, equal, conversion, spec), position + 1


def _spec(body: str, position: int) -> tuple[list | None, int]:
    """A format spec's parts (texts and nested fields), and where it ends (at its `}`)."""
    parts: list = []
    start = position
    while position < len(body) and body[position] != "}":
        if body[position] == "{":
            if position > start:
                parts.append(body[start:position])
            field = _field(body, position + 1)
            if field is None:
                return None, position
            parts.append(field[0])
            start = position = field[1]
        else:
            position += 1
    if position > start:
        parts.append(body[start:position])
    return parts, position


# between two strings written side by side: spaces, line breaks, comments, backslashes ending lines
_BETWEEN_STRINGS = re.compile(r"(?:[ \t\f\r\n]|\\\r?\n|#[^\r\n]*)*")


def _concatenated(text: str) -> list[str] | None:
    """The strings of an implicit concatenation (`"a" "b"`, over lines, comments between), none
    of them an f-string; None for any other text."""
    pieces, position = [], 0
    while position < len(text):
        string = _ONE_STRING.match(text, position)
        if string is None:
            return None
        pieces.append(string.group())
        position = _BETWEEN_STRINGS.match(text, string.end()).end()
    return pieces if len(pieces) > 1 else None


def _start(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _slice(line: str, start: int, end: int | None) -> str:
    """A line's characters between two UTF-8 byte offsets (`ast`'s columns)."""
    if line.isascii():
        return line[start:end]
    encoded = line.encode()
    return encoded[start:end].decode()


def _dotted(name: str) -> cst.Name | cst.Attribute:
    parts = name.split(".")
    built: cst.Name | cst.Attribute = _lean.Name(parts[0])
    for part in parts[1:]:
        built = _lean.Attribute(built, _lean.Name(part))
    return built


def lean_module(text: str) -> tuple[cst.Module, dict[cst.Call, int]] | None:
    """The libcst module of a text, without its formatting, and the line each call starts on;
    None where it must be parsed by libcst (a syntax error, or syntax not rebuilt here)."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
        return None  # `ast` gives identifiers in NFKC, libcst as written
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    builder = _Builder(text)
    try:
        return builder.module(tree), builder.call_rows
    except (_NotRebuilt, cst.ParserSyntaxError, RecursionError):
        return None
    finally:
        builder.close()
